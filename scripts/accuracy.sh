#!/usr/bin/env bash
# Regenerates docs/ACCURACY.md: every positioning method on every shared dataset and on a simulated office,
# plus the positioning benchmark and the Cramér–Rao efficiency. Run from anywhere:
#
#     scripts/accuracy.sh            # writes docs/ACCURACY.md
#     scripts/accuracy.sh -          # prints to standard output instead
#
# Datasets are read from $DATASETS (default: datasets/, the copies vendored in the repository); $EXTRA_DATASETS
# names more dataset folders, separated by spaces, scored the same way (for example a dataset whose licence keeps it
# out of the repository: EXTRA_DATASETS=../shared/datasets/riesebos-livingroom scripts/accuracy.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
datasets=${DATASETS:-"$root/datasets"}
out=${1:-docs/ACCURACY.md}
if [ ! -d "$datasets" ]; then
    echo "accuracy.sh: no datasets folder at $datasets (set DATASETS)" >&2
    exit 1
fi

swift build --package-path Server -c release --product indoor >&2
swift build --package-path Server -c release --product indoor-bench >&2
indoor="$root/Server/.build/release/indoor"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$indoor" simulate -o "$work/simulated-office" >&2
# Three floors, another seed: floors, floor flips and rooms on a venue nobody tuned for.
"$indoor" simulate -o "$work/three-floor-office" --floors 3 --seed 5 >&2

# One markdown table from the JSON lines of `indoor evaluate --json`.
table() {
    echo "| method | count | misses | median m | p90 m | mean m | max m | floor | in radius | floor flips/h | truth floor flips/h | wrong room | room changes/h | truth room changes/h | held wrong room | unknown room | held room changes/h |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    sed -E -e 's/,"estimator":(null|"[^"]*"),"validated_median_m":[^,}]*\}$/}/' \
        -e 's/,"wrong_room_rate":([^,]*),"room_changes_per_hour":([^,]*),"truth_room_changes_per_hour":([^,]*),"truth_floor_flips_per_hour":([^,]*),"held_wrong_room_rate":([^,]*),"unknown_room_rate":([^,]*),"held_room_changes_per_hour":([^}]*)\}$/ | \4 | \1 | \2 | \3 | \5 | \6 | \7 |/' \
        -e 's/,"floor_accuracy":([^,]*),"radius_coverage":([^,]*),"floor_flips_per_hour":([^ ]*) \|/ | \1 | \2 | \3 |/' \
        -e 's/^\{"method":"([^"]*)","count":([0-9]+),"misses":([0-9]+),"mean_m":([^,]*),"median_m":([^,]*),"p90_m":([^,]*),"max_m":([^ ]*) \|/| \1 | \2 | \3 | \5 | \6 | \4 | \7 |/' \
        -e 's/null/-/g'
}

# A calibration JSON giving every node of a nodes.csv one path loss, as a peer's firmware assumes it:
# peercal NODES.csv POWER EXPONENT (dBm at 1 m, exponent).
peercal() {
    awk -F, -v p="$2" -v n="$3" 'NR > 1 && $1 != "" { ids[++k] = $1 }
        END {
            printf "{\"pooled\":{\"rssiAt1m\":%s,\"pathLossExponent\":%s},\"nodes\":{", p, n
            for (i = 1; i <= k; i++) printf "%s\"%s\":{\"rssiAt1m\":%s,\"pathLossExponent\":%s}", (i > 1 ? "," : ""), ids[i], p, n
            print "}}"
        }' "$1"
}

# The peers' locators and their variants without a survey: label, then `indoor evaluate` method and exponent (the
# power at 1 m is -59 dBm, ESPresense's default; `typical` is Indoor's own uncalibrated model, -59 dBm and 2).
peer_variants=(
    "ESPresense-companion as shipped (1/d², exponent 2.7)|nadaraya-watson|2.7"
    "ESPresense-companion, exponent 3.5|nadaraya-watson|3.5"
    "ESPresense-companion, exponent 2|nadaraya-watson|typical"
    "multilateration, exponent 2.7|nonlinear|2.7"
    "multilateration, exponent 3.5|nonlinear|3.5"
    "Bermuda as shipped (nearest area)|nearest-area|typical"
)

# Score every dataset first (JSON lines in $work/<name>.jsonl).
names=()
# shellcheck disable=SC2086 # EXTRA_DATASETS is a list of folders separated by spaces.
for folder in "$datasets"/*/ ${EXTRA_DATASETS:-} "$work/simulated-office/" "$work/three-floor-office/"; do
    [ -f "$folder/nodes.csv" ] || continue
    name=$(basename "$folder")
    names+=("$name")
    "$indoor" evaluate "$folder" --json > "$work/$name.jsonl"
    # The default again with two other seeds of its particle filter: how much of a median is the filter's chance.
    for seed in 1 2; do
        "$indoor" evaluate "$folder" --json --method auto --filter-seed "$seed" > "$work/$name.seed$seed.jsonl"
    done
    # The same venue as if it had never been surveyed: how the survey-free methods degrade.
    if [ -d "$folder/train" ]; then
        "$indoor" evaluate "$folder" --json --no-survey --method weighted-centroid --method nadaraya-watson \
            --method nearest-area --method nonlinear --method blend --method posterior --method auto --method auto+track \
            --method particle-filter --rows "$work/$name.nosurvey.rows.csv" > "$work/$name.nosurvey.jsonl"
        # The peers' locators over their own path loss (Bermuda's has its own inside `nearest-area`).
        for exponent in 2.7 3.5; do
            peercal "$folder/nodes.csv" -59 "$exponent" > "$work/$name.peer$exponent.json"
            "$indoor" evaluate "$folder" --json --no-survey --calibration "$work/$name.peer$exponent.json" \
                --method nadaraya-watson --method nonlinear --rows "$work/$name.peer$exponent.rows.csv" \
                > "$work/$name.peer$exponent.jsonl"
        done
    fi
done

# The default without a survey against the peers on simulated venues of five kinds, seeds nobody tuned on.
scripts/simulated-venues.sh 6 101 > "$work/simulated-venues.md"

# Each data-chosen parameter of the default chosen again with each real dataset held out (a section of its own).
scripts/leave-one-venue-out.sh "$indoor" "$datasets" > "$work/leave-one-venue-out.md"

# The benchmark, run before the report is written: its figures go into the goals' table too.
"$root/Server/.build/release/indoor-bench" positioning > "$work/bench.txt"

# One key's value in the JSON line of a method of a dataset: field DATASET METHOD KEY.
field() {
    grep "^{\"method\":\"$2\"," "$work/$1.jsonl" | sed -E "s/^.*\"$3\":([^,}]*).*$/\1/"
}

# `auto`'s KEY with the filter's seeds 1 and 2, "a, b", each as printf FORMAT of the value times SCALE:
# seeds DATASET KEY [FORMAT [SCALE]].
seeds() {
    for seed in 1 2; do
        grep '^{"method":"auto",' "$work/$1.seed$seed.jsonl" | sed -E "s/^.*\"$2\":([^,}]*).*$/\1/"
    done | awk -v format="${3:-%.3f}" -v scale="${4:-1}" '{ printf (NR > 1 ? ", " : "") format, $1 * scale }'
}

# "yes" when the number $1 is at most $2, else "no" (`at_most 1.2 1.35`).
at_most() {
    awk -v a="$1" -v b="$2" 'BEGIN { print (a != "null" && a + 0 <= b + 0) ? "yes" : "no" }'
}

# The goals' table: each goal of the default (`auto`), what this run measured, and whether that meets it.
goals() {
    echo "| goal | this run | met |"
    echo "|---|---|---|"
    for pair in danis-tetam:1.35 kolakowski-flat:0.9 uji-library:1.35 three-floor-office:1.2; do
        name=${pair%%:*}
        goal=${pair#*:}
        [ -f "$work/$name.jsonl" ] || continue
        median=$(field "$name" auto median_m)
        echo "| $name: median ≤ $goal m | $median m (seeds 1, 2: $(seeds "$name" median_m)) | $(at_most "$median" "$goal") |"
    done
    floor=$(field three-floor-office auto floor_accuracy)
    echo "| three-floor-office: floor right ≥ 99.9% | $(awk -v f="$floor" 'BEGIN { printf "%.2f%%", f * 100 }') |" \
        "$(awk -v f="$floor" 'BEGIN { print (f >= 0.999 ? "yes" : "no") }') |"
    flips=$(field three-floor-office auto floor_flips_per_hour)
    truth=$(field three-floor-office auto truth_floor_flips_per_hour)
    echo "| three-floor-office: no floor flip the truth does not make | $flips flips/h, the truth's $truth |" \
        "$(at_most "$flips" "$truth") |"
    for name in "${names[@]}"; do
        coverage=$(field "$name" auto radius_coverage)
        met=$(awk -v c="$coverage" 'BEGIN { print (c >= 0.63 && c <= 0.73) ? "yes" : "no" }')
        echo "| $name: radius holds 68% ± 5 of fixes | $(awk -v c="$coverage" 'BEGIN { printf "%.1f%%", c * 100 }')" \
            "(seeds 1, 2: $(seeds "$name" radius_coverage "%.1f%%" 100)) | $met |"
    done
    for name in "${names[@]}"; do
        # The best median of the other methods that miss at most 5% of the rows (not `auto+track`, nor
        # `particle-filter`, `auto`'s own filter under another name).
        read -r other median misses <<< "$(grep -v -e '^{"method":"auto[+"]' -e '^{"method":"particle-filter",' \
            "$work/$name.jsonl" |
            sed -E 's/^\{"method":"([^"]*)","count":([0-9]+),"misses":([0-9]+),.*"median_m":([^,]*),.*$/\1 \4 \3 \2/' |
            awk '$2 != "null" && $3 * 20 <= $4 { print $1, $2, $3 }' | sort -k2,2g | head -1)"
        mine=$(field "$name" auto median_m)
        echo "| $name: median as low as the best of the other methods' | $mine m (seeds 1, 2: $(seeds "$name" median_m));" \
            "$other $median m |" \
            "$(at_most "$mine" "$median") |"
    done
    updates=$(sed -nE 's/^particle filter: ([0-9]+) updates.*$/\1/p' "$work/bench.txt")
    echo "| particle filter ≥ 50 000 updates/s (1000 particles, 8 nodes heard; one core) | $updates | $(at_most 50000 "$updates") |"
    fixes=$(sed -nE 's/^nonlinear +([0-9]+)$/\1/p' "$work/bench.txt")
    # The goal as the issue set it, 1.4 M where a plain Gauss–Newton in C does 1.7 M on the same machine: a ratio
    # to the bench's C reference measured beside it in the same run (0.82), whatever the core.
    reference=$(sed -nE 's/^nonlinear against a plain Gauss–Newton in C on the same readings \(([0-9]+) fixes\/s\): ([0-9.]+) of its rate.*$/\1 \2/p' "$work/bench.txt")
    ratio=${reference##* }
    echo "| \`nonlinear\` ≥ 1.4 M fixes/s where a plain Gauss–Newton in C does 1.7 M: ≥ 0.82 of the bench's C reference, same run (one core) | $fixes; C ${reference%% *}: $ratio of it | $(at_most 0.82 "$ratio") |"
}

# The best median of a dataset among methods that miss at most 5% of the rows: "method median misses".
best() {
    sed -E 's/^\{"method":"([^"]*)","count":([0-9]+),"misses":([0-9]+),.*"median_m":([^,]*),.*$/\1 \4 \3 \2/' \
        "$work/$1.jsonl" | awk '$2 != "null" && $3 * 20 <= $4 { print $1, $2, $3 }' | sort -k2,2g | head -1
}

{
    echo "# Positioning accuracy"
    echo
    echo "Generated by \`scripts/accuracy.sh\` (release build; $(date -u +%Y-%m-%d)). Every method of"
    echo "\`MethodCatalog\` is scored by \`indoor evaluate DATASET --json\`: online and causal, each truth row of"
    echo "\`test/\` answered from that device's sightings up to its time; methods that calibrate or learn do so on"
    echo "\`train/\` only. Errors are horizontal, metres; *count* is truth rows, *misses* rows without a position"
    echo "(not in the error statistics). The engine refuses any estimate more than max(10 m, half the diagonal)"
    echo "outside the box of the nodes heard (a miss here); \`+track\` methods smooth each device's fixes with a"
    echo "constant-velocity Kalman filter (see POSITIONING.md)."
    echo
    echo "## The default against its goals"
    echo
    echo "The goals set for \`auto\` (\`--method default\`), what this run measured, and whether it meets them (the"
    echo "benchmark's figures are from the same run, on a machine shared with other jobs). Users get the filter's seed 0;"
    echo "beside it, the same with seeds 1 and 2 (\`--filter-seed\`), as good on average: what a median owes to the"
    echo "filter's chance."
    echo
    goals
    echo
    echo "What holds the rest back, as far as the data show (\`indoor evaluate DATASET --method auto --rows FILE.csv\`"
    echo "lists every row's fix, error and radius):"
    echo
    echo "- danis-tetam: the errors are spread over the whole of the tracks, with runs of 3 s or more above 2.5 m on"
    echo "  7% of the rows (the longest 10 s, in \`rectangular_with_rotation\` 40 s in; counted with \`--rows\` on"
    echo "  2026-11-25). The survey held the beacon still for minutes at each of 81 points; the test moves it, and"
    echo "  \`train/\` cannot show how the links read on the move, so nothing could be chosen on it for that."
    echo "- uji-library: each test device is one scan of at most 2 s, so tracking cannot help, and the test points lie"
    echo "  between the survey's: the survey's points are 1.8 m apart along three rows 4.4 m apart, the test's along"
    echo "  the two rows between them, 2.2–2.4 m from the nearest surveyed point. The map interpolates where nothing"
    echo "  was measured."
    echo "- kolakowski-flat: the survey is two robot paths and the test a third; with 6 anchors, the default is below"
    echo "  k-NN's fingerprints of the paths at the median, the mean and the 90th percentile (the tables below), and"
    echo "  above its goal by less than a tenth of a metre. With one survey path scored against the other"
    echo "  (each the other's survey; no test split), k-NN's medians are 1.73 and 1.55 m against the filter's 1.07"
    echo "  and 1.40 m: the test path runs close to the surveyed ones (its rows' median distance to the nearest"
    echo "  surveyed point is 0.32 m; from one survey path to the other 0.66 and 1.12 m), which favours k-NN there."
    echo "- openhps-room: the plain radio map's posterior is below the default at the median, by about 0.03 m; at the"
    echo "  mean and the 90th percentile the two are within a centimetre (the tables below). The phone stands still at"
    echo "  each test point. Why the median differs is not found."
    echo "- three-floor-office, floor: each wrong floor is the row of the second the truth's floor changes (the walker"
    echo "  halfway up the stairs, where the simulator switches floor and floor loss); the next row is right. Answering"
    echo "  the new floor at that very second needs the readings of the seconds after it."
    echo "- The accuracy radius: each venue's clouds are tighter or looser than their errors by the venue's own amount."
    echo "  What measures that on the survey (replaying its walks over a map of two thirds of it) overstates the"
    echo "  errors, and applied outright it moved the development sets further from 68% (POSITIONING.md). The"
    echo "  distance a walker covers in the readings' half-second age is now counted (below), which lifts the"
    echo "  simulated offices, whose walkers are fast, by 2–3 points; most of their shortfall is while standing still"
    echo "  (on a development office, seed 7: 48% of the still rows covered, 53% of the moving ones)."
    echo "- The particle filter's updates per second follow the core: 48–55 k on one machine of this kind, 39–43 k on"
    echo "  another with the same build (POSITIONING.md, which also lists what was tried); the lost-cloud check takes"
    echo "  about a tenth off (the benchmark measures the filter with and without it)."
    echo
    echo "## How the tables are made"
    echo
    echo "Rooms, where the venue has them (zones with polygon fences in \`venue.json\`: here the simulated office,"
    echo "one zone per room and one for the corridor): *wrong room* is the share of located rows whose truth is in a"
    echo "room where the fix is in another room or in none; *room changes/h* counts how often a device's fix moves"
    echo "to another room (or into or out of no room) between consecutive located rows, per device-hour of located"
    echo "rows: room flapping. *truth room changes/h* counts the same for the truth over the same rows, what a"
    echo "method that never strays would score. *held wrong room*, *unknown room* and *held room changes/h* score the"
    echo "room a tracker answers (\`RoomHold\`, GEOFENCING.md: held through fixes that stray over a wall, changed when"
    echo "the fixes settle in another room, *unknown* when they left without settling; an unknown row is neither"
    echo "right nor wrong). \`-\` where the dataset has no rooms. *floor flips/h* counts changes of a device's fix"
    echo "floor between consecutive located rows per device-hour; *truth floor flips/h* the truth's over the same rows."
    echo
    echo "Walls and stairs: the simulated venues' \`venue.json\` lists each floor's walls and (with several floors) the"
    echo "stairwell; \`particle-filter\` and \`auto\` with a survey keep their particles out of walls and change floor"
    echo "at the stairs (POSITIONING.md). The real datasets have no plan."
    echo
    echo "Reference medians of simple baselines (weighted centroid of the 3 strongest, k-NN k = 3, least-squares"
    echo "trilateration), best of the three: uji-library 1.71 m, danis-tetam 1.95 m, kolakowski-flat 1.23 m."
    echo
    echo "How far to trust these numbers: no code looks at a dataset's ids, layout or numbers, and every fit"
    echo "(calibration, fingerprints, radio maps) uses \`train/\` only. A few generic design choices (averaging survey"
    echo "fingerprints per surveyed position, k = 3, the blend's trusts) were compared on these test splits while"
    echo "the methods were developed, so the best medians here are slightly optimistic for unseen venues; the"
    echo "simulated office, where nothing was tuned, is the check on that."
    echo
    echo "\`posterior\`, \`radio-map\` and \`auto\` (\`--method default\`) locate by the posterior mean over a grid"
    echo "(POSITIONING.md). \`auto\`'s parameters (radio-map kernel length, added model variance, temperature, receiver"
    echo "offset prior, the unheard-nodes term, the share of k-NN blended in) are chosen per dataset by 5-fold"
    echo "cross-validation on \`train/\` alone (\`RadioMapCrossValidation\`, seeded; every candidate's normalising term"
    echo "weighs twice and its Student-t has 8 degrees of freedom, chosen with each real dataset held out: below); without"
    echo "a survey it takes one generic"
    echo "configuration on a 0.5 m grid (temperature 1, offset prior 15 dB, no unheard-nodes term) held near the centroid"
    echo "of the strongest nodes heard (\`CentroidPrior\`: temperature 10 dB, width 0.75, narrowed across a row of them,"
    echo "chosen with each real dataset held out on \`train/\` splits, notes/auto-no-survey-centroid-prior.md and"
    echo "notes/auto-no-survey-prior-shape.md) however many nodes are heard; with a"
    echo "calibration that knows the path loss, without that prior where four or more nodes are heard and by"
    echo "trilateration where fewer are;"
    echo "the threshold and the grid were chosen on the development sets below and four sparse simulated offices"
    echo "(POSITIONING.md). The weighting was chosen without a test split: on"
    echo "uji-library's and kolakowski-flat's \`train/\` scored as if they were test data, and on eight simulated offices"
    echo "that are not scored (seeds 3, 7, 11, 13; one floor and three), comparing temperatures 0.5, 1, 2 × offset priors"
    echo "4–20 dB × the unheard term on or off (the term's removal was better or equal on all ten; offset priors 10, 15"
    echo "and 20 dB were within 1% of each other, 15 taken). danis-tetam's \`train/\` cannot be scored that way: it keeps"
    echo "each receiver's first 300 packets of a point, so at the truth row's time most of them are stale. What was"
    echo "compared on the test splits during development: whether to add a model-variance term and a k-NN share at all"
    echo "(both then made cross-validation choices, not fixed values), the candidate grids of the cross-validation, and"
    echo "an earlier generic no-survey temperature (0.5 → 1). \`radio-map\` and \`posterior\`"
    echo "run fixed defaults (kernel 2 m, model variance 4 dB², temperature 0.5, offset prior 4 dB). Also compared on the"
    echo "test splits and left out: letting the cross-validation choose the Student-t's degrees of freedom too (2, 4 or"
    echo "10 instead of 4 alone), which moved danis-tetam 1.558 → 1.554 m and uji-library 1.482 → 1.615 m."
    echo
    echo "\`particle-filter\` tracks each device with 1000 particles weighed by \`auto\`'s posterior (POSITIONING.md);"
    echo "with a survey, \`auto\` is that filter (without one, the fix-by-fix posterior). The filter's own defaults"
    echo "(speed, heading time, evidence weight, a 1 s reading mean) were compared on a simulated office of seed 11"
    echo "only, which is neither of the simulated venues below (\`simulated-office\`: seed 1, one floor;"
    echo "\`three-floor-office\`: \`indoor simulate --floors 3 --seed 5\`). A faster typical speed, 1.4 m/s per axis"
    echo "instead of 1, was chosen later on eight unscored simulated offices (seeds 3, 7, 11, 13; one floor and three;"
    echo "better on all eight) and kolakowski-flat's \`train/\` (one robot path as the survey, the other scored, and"
    echo "back; within 1%), then compared on the test splits: danis-tetam 1.558 → 1.635 m, kolakowski-flat 1.171 →"
    echo "1.174, uji-library 1.482 → 1.487, three floors 1.128 → 1.119, the one-floor office unchanged. It was left"
    echo "out: the simulator's walkers favour a fast cloud that real movers do not. Weighing each particle where it"
    echo "was when the readings were heard (their mean age, no parameter) was compared on simulated offices of seeds"
    echo "11 and 7; a fixed extra half second was also compared on the test splits, where it made danis-tetam worse"
    echo "(1.56 → 1.60 m), and was left out. The floor change inside a plan's stairwell (0.1 per second) was compared"
    echo "on three-floor offices of seeds 3, 7, 11 and 13. The filter weighs its particles on a lattice of the map's"
    echo "grid points about 0.75 m apart (every third point of a 0.25 m grid; 1.6× the updates per second), chosen on"
    echo "those eight offices and kolakowski-flat's \`train/\` (medians −0.02…+0.01 m against every grid point); on"
    echo "the test splits afterwards the medians moved +0.00…+0.03 m (danis-tetam 1.558 → 1.578, kolakowski-flat"
    echo "1.171 → 1.180, uji-library 1.487 → 1.488, one floor 1.247 → 1.255, three floors 1.128 → 1.134), within the"
    echo "spread of the filter's own seed (with seeds 0–4, two development offices' medians varied by 0.03–0.04 m)."
    echo "The receiver offset is a drifting state of the filter (its prior the cloud's last estimate, with that"
    echo "estimate's variance plus a drift of 0.2 dB/√s, never broader than the posterior's prior; before, the posterior's"
    echo "prior at every update): 0.2 chosen on the same eight offices and kolakowski-flat's \`train/\` (offices' sum"
    echo "10.35 → 10.20 m, kolakowski-flat's \`train/\` 1.51 → 1.45 m; 0.05, 0.1, 0.5, 1 less good). On the test splits"
    echo "afterwards: danis-tetam 1.578 → 1.493, kolakowski-flat 1.180 → 1.228 (worse), uji-library unchanged (its rows are"
    echo "single scans), one floor 1.255 → 1.253, three floors 1.134 → 1.126 m."
    echo "The heading time of the filter's walkers, 6 s instead of 2 s (which came from the seed-11 office alone), was then"
    echo "chosen on the eight offices and kolakowski-flat's and uji-library's \`train/\` (offices' sum 10.20 → 9.96 m,"
    echo "kolakowski-flat's \`train/\` 1.45 → 1.40 m, uji-library's unchanged; 1, 3, 4 and 10 s less good)."
    echo "On the test splits afterwards: danis-tetam 1.493 → 1.517, kolakowski-flat 1.228 → 1.180, uji-library 1.488 → 1.487, one"
    echo "floor 1.253 → 1.246, three floors 1.126 → 1.121 m."
    echo "How much one update of the filter counts (its evidence weight, 0.5) is then chosen per venue on the survey's own"
    echo "walks (\`TrackingValidation\`, POSITIONING.md): the survey's time cut into 30 s blocks dealt into three folds, each"
    echo "fold's walking blocks replayed through the filter over a map learned from the other two, with weights 0.18 to 1 in"
    echo "steps of √2; another weight than 0.5 is taken only when its replay errors beat 0.5's by two standard errors"
    echo "over blocks, and the accuracy radius is then rescaled by the replay's ratio of the two weights' 68% error-to-radius"
    echo "quantiles. The rule (the bar of two standard errors, the rescaled radius) was set on development sets: eight"
    echo "simulated offices (seeds 3, 7, 11, 13; one floor and three) and kolakowski-flat's two survey paths, each the"
    echo "other's survey; their medians summed 12.43 → 12.33 m, none worse (taking the best replay median without the bar"
    echo "made two of them worse, one by 0.15 m; without the rescaled radius, lower weights' broader clouds overstated the"
    echo "radius, kolakowski-flat's test coverage 74% → 95%). Where the survey has no walks (danis-tetam, uji-library) or"
    echo "0.5 is not clearly beaten (both simulated venues below) nothing changes. On the test splits afterwards:"
    echo "kolakowski-flat (0.18 chosen) 1.180 → 1.184 m, its radius coverage 74% → 68%."
    echo "A fix from readings alone (a device's first second; every row of uji-library, whose test devices are one"
    echo "scan each) is the grid posterior's mean, its radius that posterior's 68% radius times the factor the radio"
    echo "map's cross-validation measured on the survey's held-out fingerprints (their errors' 68% quantile over the"
    echo "radius the posterior stated; POSITIONING.md). Chosen on uji-library's \`train/\` in two halves, each the other's"
    echo "survey (coverage 48% → 73% and 47% → 64%); on the test splits afterwards the coverage went 59% → 74% on"
    echo "uji-library, 73.7% → 73.8% on danis-tetam, and \`auto+track\`'s medians 1.510 → 1.491 m on uji-library and"
    echo "1.522 → 1.521 m on danis-tetam (its track weighs each fix by its radius); the other coverages moved by 0.3"
    echo "points or less."
    echo "The clouds' radius also counts the distance the cloud's mean velocity covers in 0.5 s (a causal estimate"
    echo "trails a walker by about the age of its readings; POSITIONING.md), chosen over the filter's seeds 0, 1 and 2"
    echo "on the development sets (\`scripts/development.sh\`, which rebuilds and scores them): their mean distance of"
    echo "coverage from 68% 9.67 / 10.78 / 10.03 → 9.48 / 10.33 / 9.71 points; the fixes do not change. On the test"
    echo "splits afterwards: simulated-office 53.8% → 56.1%, three-floor-office 58.4% → 61.0%, danis-tetam 73.8% →"
    echo "74.4%, kolakowski-flat 68.2% → 68.4%, uji-library unchanged (single scans)."
    echo "Then the answer itself was moved on by 0.25 s of the cloud's mean velocity (\`ParticleFilter.Configuration.leadTime\`),"
    echo "chosen on the same development sets over the same three seeds (medians summed 12.349 / 12.594 / 12.480 →"
    echo "12.275 / 12.443 / 12.288 m, better on 6–7 of the ten sets at each seed; 0.5, 0.75 and 1 s compared). On the test"
    echo "splits afterwards: danis-tetam 1.517 → 1.552 m (seeds 1, 2: 1.520 → 1.571, 1.523 → 1.556: worse on every seed),"
    echo "kolakowski-flat 1.184 → 1.199 m (seeds 1, 2: 1.145 → 1.099, 1.125 → 1.154), uji-library 1.487 → 1.488 m,"
    echo "simulated-office 1.246 → 1.240 m, three-floor-office 1.121 → 1.116 m; the coverage on danis-tetam 74.4% →"
    echo "72.8%, inside 68% ± 5 because its errors grew, not because the radius got better. It was kept: it was chosen"
    echo "without a test split, and leaving it out now would be choosing on one; the development sets are mostly"
    echo "simulated, whose walkers move faster than danis-tetam's beacon, and that is the weakness this shows."
    echo "Resampling when the effective sample size falls below a quarter of the particles instead of half was"
    echo "chosen on the same development sets (2026-11-26; medians summed 12.335 → 12.259 m over seeds 0, 1 and 2,"
    echo "better on each; 0.1 and 0.75 gave 12.385 and 12.314 m), then compared on the test splits, means over"
    echo "seeds 0, 1 and 2: danis-tetam 1.560 → 1.536 m, kolakowski-flat 1.151 → 1.173 m, uji-library unchanged,"
    echo "simulated-office 1.241 → 1.293 m, three-floor-office 1.115 → 1.147 m. Left out: worse on three of the"
    echo "four tracked venues, and the development sets' own response was not monotone (0.1 worse than 0.5)."
    echo
    echo "Best method per dataset (lowest median among methods missing at most 5% of the rows):"
    echo
    echo "| dataset | best method | median m | misses |"
    echo "|---|---|---:|---:|"
    for name in "${names[@]}"; do
        read -r method median misses <<< "$(best "$name")"
        echo "| $name | $method | $median | $misses |"
    done
    echo
    echo "What the default chose on each survey (\`auto\`'s \`estimator\` and \`validated_median_m\` in \`--json\`:"
    echo "the share of k-NN in its answer, chosen on the survey's walks; POSITIONING.md) and what it scored on \`test/\`"
    echo "beside the best simple baseline (weighted centroid, k-NN k = 3, linear least squares, the best median of the"
    echo "three among those missing at most 5% of the rows) and beside ESPresense-companion's default locator"
    echo "(\`nadaraya-watson\`: the nodes heard weighted by 1/d², over the same ranges; its misses in brackets):"
    echo
    echo "| dataset | estimator chosen | validated median m | test median m | misses | best simple baseline | its median m | ESPresense-companion's locator m |"
    echo "|---|---|---:|---:|---:|---|---:|---:|"
    for name in "${names[@]}"; do
        estimator=$(grep '^{"method":"auto",' "$work/$name.jsonl" | sed -E 's/^.*"estimator":(null|"([^"]*)").*$/\2/')
        read -r baseline baseline_median _ <<< "$(grep -e '^{"method":"weighted-centroid",' -e '^{"method":"knn",' \
            -e '^{"method":"linear-least-squares",' "$work/$name.jsonl" |
            sed -E 's/^\{"method":"([^"]*)","count":([0-9]+),"misses":([0-9]+),.*"median_m":([^,]*),.*$/\1 \4 \3 \2/' |
            awk '$2 != "null" && $3 * 20 <= $4 { print $1, $2, $3 }' | sort -k2,2g | head -1)"
        echo "| $name | ${estimator:--} | $(field "$name" auto validated_median_m | sed 's/null/-/') |" \
            "$(field "$name" auto median_m) | $(field "$name" auto misses) | ${baseline:--} | ${baseline_median:--} |" \
            "$(field "$name" nadaraya-watson median_m) ($(field "$name" nadaraya-watson misses)) |"
    done
    echo
    cat "$work/leave-one-venue-out.md"
    echo
    echo "Medians at a glance (metres; * = misses more than 5% of the rows):"
    echo
    header="| method |"
    rule="|---|"
    for name in "${names[@]}"; do
        header="$header $name |"
        rule="$rule---:|"
    done
    echo "$header"
    echo "$rule"
    methods=$(sed -E 's/^\{"method":"([^"]*)".*$/\1/' "$work/${names[0]}.jsonl")
    for method in $methods; do
        row="| $method |"
        for name in "${names[@]}"; do
            cell=$(grep "^{\"method\":\"$method\"," "$work/$name.jsonl" |
                sed -E 's/^.*"count":([0-9]+),"misses":([0-9]+),.*"median_m":([^,]*),.*$/\1 \2 \3/' |
                awk '{ if ($3 == "null") print "-"; else printf "%.2f%s", $3, ($2 * 20 > $1 ? "*" : "") }')
            row="$row ${cell:--} |"
        done
        echo "$row"
    done
    echo
    echo "Without a survey (\`indoor evaluate DATASET --no-survey\`: no calibration, no fingerprints; medians, metres):"
    echo
    table < /dev/null
    for name in "${names[@]}"; do
        [ -f "$work/$name.nosurvey.jsonl" ] || continue
        table < "$work/$name.nosurvey.jsonl" | tail -n +3 | sed -E "s/^\| ([^ |]*) \|/| $name: \1 |/"
    done
    echo
    echo "The default without a survey beside the survey-free simple baseline (the weighted centroid of the three"
    echo "strongest) and the open peers' locators as they ship, re-implemented in the evaluation library over a"
    echo "path loss of their own (\`indoor evaluate --no-survey --calibration\` with every node at -59 dBm at 1 m):"
    echo "ESPresense-companion's 1/d² weighting of the nodes heard (\`nadaraya-watson\`; ESPresense's default"
    echo "exponent 2.7) and Bermuda's nearest area (\`nearest-area\`, the nearest node by its own -55 dBm and exponent"
    echo "3, with its hysteresis). The peers' other variants: the companion's weighting at exponents 3.5 and 2 (Indoor's"
    echo "uncalibrated model), and multilateration (\`nonlinear\`, least squares on the same ranges, in place of the"
    echo "companion's Nelder–Mead) at 2.7 and 3.5. A locator that gives no answer for a row (the companion with one"
    echo "node heard) is compared with the default on the rows both answer: *on its rows* is the two medians there"
    echo "(\`scripts/same-rows.py\` over \`indoor evaluate --rows\`). Beside it, how far that difference is the rows'"
    echo "chance: the 95% interval of auto's median less the companion's over 1000 resamples of those rows in blocks (a"
    echo "device's rows in the same 30 s, a single scan alone; \`scripts/same-rows.py --interval\`). An interval that"
    echo "holds 0 is a difference the test split cannot tell from chance."
    echo "Medians in metres, misses in brackets:"
    echo
    echo "| dataset | auto | weighted-centroid | companion as shipped | Bermuda as shipped | best peer variant | auto against the companion on its rows | auto less the companion, 95% interval | auto against the best variant on its rows |"
    echo "|---|---:|---:|---:|---:|---|---:|---:|---:|"
    for name in "${names[@]}"; do
        [ -f "$work/$name.nosurvey.jsonl" ] || continue
        row="| $name |"
        for method in auto weighted-centroid; do
            row+=" $(field "$name.nosurvey" "$method" median_m) ($(field "$name.nosurvey" "$method" misses)) |"
        done
        best=""
        best_median=""
        shipped=""
        for variant in "${peer_variants[@]}"; do
            IFS='|' read -r label method exponent <<< "$variant"
            source="$name.nosurvey"
            [ "$exponent" = typical ] || source="$name.peer$exponent"
            median=$(field "$source" "$method" median_m)
            cell="$median ($(field "$source" "$method" misses))"
            case "$label" in
                "ESPresense-companion as shipped"*) shipped="$source $method"; row+=" $cell |" ;;
                "Bermuda as shipped"*) row+=" $cell |" ;;
            esac
            if [ "$median" != null ] && { [ -z "$best_median" ] ||
                awk -v a="$median" -v b="$best_median" 'BEGIN { exit !(a < b) }'; }; then
                best="$label|$source|$method"
                best_median=$median
            fi
        done
        IFS='|' read -r best_label best_source best_method <<< "$best"
        row+=" $best_label: $best_median ($(field "$best_source" "$best_method" misses)) |"
        read -r source method <<< "$shipped"
        read -r ours theirs shared low high < <(scripts/same-rows.py --interval "$work/$name.nosurvey.rows.csv" auto \
            "$work/$source.rows.csv" "$method")
        row+=" $ours against $theirs ($shared rows) | $low … $high |"
        read -r ours theirs shared < <(scripts/same-rows.py "$work/$name.nosurvey.rows.csv" auto \
            "$work/$best_source.rows.csv" "$best_method")
        row+=" $ours against $theirs ($shared rows) |"
        echo "$row"
    done
    echo
    echo "### Without a survey on simulated venues nobody tuned for"
    echo
    echo "The same comparison on 30 simulated venues (\`scripts/simulated-venues.sh 6 101\`: seeds 101–106 of five"
    echo "kinds; the parameters were chosen on other seeds of the office and on real \`train/\` splits): \`office\` is"
    echo "\`indoor simulate\`'s office (14 beacons, people walking for 300 s), \`scans\` the same with 22 beacons and 150"
    echo "people heard for 2 s each (single scans, as uji-library's), \`sparse\` a 45 m × 18 m floor with 6 beacons and"
    echo "60% of packets lost, \`floors\` three floors, \`corridor\` a 55 m L-shaped corridor with 16 beacons on its line"
    echo "(\`scripts/l-corridor.py\`). The companion and Bermuda as above; a device's first row, before anything is heard,"
    echo "is a miss for every method."
    echo
    cat "$work/simulated-venues.md"
    for name in "${names[@]}"; do
        echo
        if [ "$name" = "simulated-office" ]; then
            echo "## $name (\`indoor simulate\` with default options, seed 1)"
        elif [ "$name" = "three-floor-office" ]; then
            echo "## $name (\`indoor simulate --floors 3 --seed 5\`)"
        else
            echo "## $name"
        fi
        echo
        table < "$work/$name.jsonl"
    done
    echo
    echo "## Benchmark (\`indoor-bench positioning\`)"
    echo
    echo "Standard synthetic workload: 24 nodes on a 6 × 4 grid spanning 40 m × 30 m at z = 2.5 m, 2000 devices"
    echo "uniformly placed at z = 1.2 m, each hearing its 8 nearest nodes at −59 dBm at 1 m, exponent 2, σ = 4 dB"
    echo "(seeded); knn matches a noise-free 2 m fingerprint grid. Throughput is per core, on a machine shared with"
    echo "other jobs, so it varies between runs."
    echo "The Cramér–Rao bound is for horizontal position with the device height known."
    echo
    echo '```'
    cat "$work/bench.txt"
    echo '```'
} > "$work/ACCURACY.md"

if [ "$out" = "-" ]; then cat "$work/ACCURACY.md"; else cp "$work/ACCURACY.md" "$out"; echo "wrote $out" >&2; fi
