#!/usr/bin/env bash
# The leave-one-venue-out section of docs/ACCURACY.md: the default's parameters that were chosen on data, chosen again
# with each real dataset held out in turn, on the other datasets' train/ splits alone, and scored on the held-out
# one's test split; then each chosen on every dataset's train/ (the rule for a default), with the test medians those
# choices give. scripts/accuracy.sh runs it; alone:
#
#     scripts/leave-one-venue-out.sh [INDOOR [DATASETS]]    # prints the markdown section
#
# INDOOR is the `indoor` binary (default: Server/.build/release/indoor, built first); DATASETS the folder of datasets
# (default: $DATASETS, else datasets/). WORK=FOLDER keeps every score in FOLDER and reuses those already there (an
# interrupted run goes on where it stopped; remove the folder after a change to the engine); JOBS=N runs N
# evaluations of the development sets at a time (default 1).
#
# Choosing on train/ alone: each dataset's train/ is split by device (its devices in sorted order, alternately) into
# a development set, the even ones its survey and the odd ones its test; `indoor evaluate DEV --method auto --tuning
# NAME=VALUE` scores each value there (with `--no-survey` for the parameters of the default without a survey). A
# development set that cannot locate (its test rows hear fewer than three of the venue's nodes in the 5 s before
# each, at the median: a survey recorded node by node leaves one node heard at its truth rows' times) or whose
# default misses half its rows or more cannot score anything and is left out of that mode's choices. For a held-out
# dataset, each parameter takes a value other than the default only by the rule of `choose` below, over the other
# datasets' usable development sets (a lower sum of medians by more than MARGIN metres, default 0.05, and better on
# at least two sets and on more than it is worse on), and the held-out test/ is scored with it. The final choice is
# made the same way on every usable development set, and is stable when the same value is chosen with each dataset
# held out too (a value that flips with the dataset left out is not one the data agree on). No test/ split is looked
# at when choosing.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
indoor=${1:-}
datasets=${2:-${DATASETS:-"$root/datasets"}}
if [ -z "$indoor" ]; then
    swift build --package-path Server -c release --product indoor >&2
    indoor="$root/Server/.build/release/indoor"
fi
if [ -n "${WORK:-}" ]; then
    work=$WORK
    mkdir -p "$work"
else
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
fi

# The parameters compared: the mode they are scored in (`survey`: `auto` learning from train/; `no-survey`: `auto`
# with --no-survey), NAME and its values, the default's first. The grids were set before any of them was scored:
# the default and a value on either side (about ×½ and ×2, or the values the parameter's note compared), and for the
# bars 0 (take the best on the walks) and 10⁹ (never leave the standard); for `no-survey-filter` off and on; for
# `centroid-gate` 10⁹ (never: the default leaves it unset), the weighted centroid's radius and half of it (set after
# a first look at the development sets: docs/notes/auto-no-survey-simple-estimators.md); for `centroid-prior` and
# `centroid-temperature` the neighbours in the grid they were chosen from, and 0 (no prior) for the width
# (docs/notes/auto-no-survey-centroid-prior.md); for `centroid-layout` the prior narrowed across a row of nodes and the plain circle
# (docs/notes/auto-no-survey-prior-shape.md); for `reading-noise` the engine's default filter (4) and twice the chosen
# value (docs/notes/auto-no-survey-reading-filter.md); for `lost-chance` off (0) and the grid's 0.05
# (docs/notes/particle-filter-lost-cloud.md).
# `particles` is `--particles`, the others `--tuning NAME=VALUE` (`indoor evaluate --help`).
parameters=(
    "survey lead-time 0.25 0 0.5"
    "survey turn-time 6 2 10"
    "survey offset-drift 0.05 0.025 0.1"
    "survey speed 1 0.7 1.4"
    "survey particles 1000 500 2000"
    "survey evidence-weight 0.7 0.5 1"
    "survey evidence-bar 2 0 1000000000"
    "survey estimator-bar 2 0 1000000000"
    "survey map-knn-share 0.3333333333333333 0 0.5"
    "survey map-kernel-scale 1 0.5 2"
    "survey map-variance-weight 2 1 4"
    "survey map-prior-weight 0.25 0.125 0.5"
    "survey degrees-of-freedom 8 4 16"
    "survey lost-chance 0.01 0 0.05"
    "no-survey generic-temperature 1 0.5 2"
    "no-survey generic-offset-prior 15 10 20"
    "no-survey generic-degrees-of-freedom 4 2 8"
    "no-survey dense-minimum 4 3 5"
    "no-survey ranges-bar 0.1 0.05 0.2"
    "no-survey no-survey-filter 0 1"
    "no-survey centroid-gate 1000000000 1 0.5"
    "no-survey centroid-prior 0.75 0.5 1 0"
    "no-survey centroid-temperature 10 8 6"
    "no-survey centroid-layout 1 0"
    "no-survey reading-noise 12 4 24"
)
modes=(survey no-survey)

# A value as the tables show it.
shown() { awk -v v="$1" 'BEGIN { printf "%g", v }'; }

# The evaluate options of NAME=VALUE settings.
options() {
    local setting
    for setting in "$@"; do
        case $setting in
            particles=*) printf '%s\n' --particles "${setting#particles=}" ;;
            *) printf '%s\n' --tuning "$setting" ;;
        esac
    done
}

# The default's median (or "miss" when it misses half the rows or more) on dataset folder FOLDER in MODE with the
# settings NAME=VALUE…, kept in FILE (and read from it when it is already there): score FILE FOLDER MODE [NAME=VALUE…].
score() {
    local file=$1 folder=$2 mode=$3
    shift 3
    if [ ! -s "$file" ]; then
        local extra=()
        [ "$mode" = no-survey ] && extra+=(--no-survey)
        mapfile -t -O ${#extra[@]} extra < <(options "$@")
        if ! "$indoor" evaluate "$folder" --json --method auto "${extra[@]}" > "$file.json" 2> "$file.log"; then
            echo "leave-one-venue-out: indoor evaluate $folder ${extra[*]} failed:" >&2
            tail -n 3 "$file.log" >&2
            exit 1
        fi
        sed -E 's/^.*"count":([0-9]+),"misses":([0-9]+),.*"median_m":([^,]*),.*$/\1 \2 \3/' "$file.json" |
            awk '{ print ($3 == "null" || $2 * 2 >= $1) ? "miss" : $3 }' > "$file.part"
        mv "$file.part" "$file"
        rm -f "$file.json" "$file.log"
    fi
    cat "$file"
}

# The development set of each real dataset with a survey: train/ split by device.
names=()
for folder in "$datasets"/*/; do
    [ -f "$folder/nodes.csv" ] && [ -d "$folder/train" ] || continue
    name=$(basename "$folder")
    names+=("$name")
    devset="$work/dev/$name"
    [ -f "$devset/test/truth.csv" ] && continue
    mkdir -p "$devset/train" "$devset/test"
    cp "$folder/nodes.csv" "$devset/"
    tail -n +2 "$folder/train/truth.csv" | cut -d, -f2 | sort -u | awk 'NR % 2 == 0' > "$work/$name.odd"
    for file in sightings truth; do
        awk -F, -v odd="$work/$name.odd" -v train="$devset/train/$file.csv" -v test="$devset/test/$file.csv" '
            BEGIN { while ((getline line < odd) > 0) held[line] = 1 }
            NR == 1 { print > train; print > test; next }
            { print > ($2 in held ? test : train) }' "$folder/train/$file.csv"
    done
done

# The median of development set NAME in MODE with NAME=VALUE (the default's own run for the default's value):
# dev NAME MODE PARAMETER VALUE DEFAULT.
dev() {
    if [ "$4" = "$5" ]; then
        score "$work/$1.$2.default.dev" "$work/dev/$1" "$2"
    else
        score "$work/$1.$3.$4.dev" "$work/dev/$1" "$2" "$3=$4"
    fi
}

# Every parameter value's median on every development set, JOBS (default 1) evaluations at a time.
jobs=()
for line in "${parameters[@]}"; do
    read -r mode parameter values <<< "$line"
    standard=${values%% *}
    for value in $values; do
        for name in "${names[@]}"; do
            if [ "$value" = "$standard" ]; then
                jobs+=("$work/$name.$mode.default.dev|$work/dev/$name|$mode|")
            else
                jobs+=("$work/$name.$parameter.$value.dev|$work/dev/$name|$mode|$parameter=$value")
            fi
        done
    done
done
export indoor
export -f score options
printf '%s\n' "${jobs[@]}" | sort -u | xargs -P "${JOBS:-1}" -I{} bash -c '
    IFS="|" read -r file folder mode setting <<< "$1"
    score "$file" "$folder" "$mode" ${setting:+"$setting"} > /dev/null' _ {}

# The median, over development set NAME's test rows, of the venue's nodes heard in the 5 s before the row (that
# device's sightings), kept in a file: heard NAME.
heard() {
    local file="$work/$1.heard" folder="$work/dev/$1"
    if [ ! -s "$file" ]; then
        { awk -F, 'NR > 1 { print $1 ",s," $2 "," $3 }' "$folder/test/sightings.csv"
          awk -F, 'NR > 1 { print $1 ",t," $2 }' "$folder/test/truth.csv"; } |
            sort -t, -k1,1g -k2,2 |
            awk -F, -v window=5 '
                $2 == "s" {
                    key = $3 SUBSEP $4
                    if (!(key in last)) list[$3] = list[$3] " " $4
                    last[key] = $1
                    next
                }
                {
                    n = 0
                    count = split(list[$3], nodes, " ")
                    for (i = 1; i <= count; i++) if (last[$3 SUBSEP nodes[i]] >= $1 - window) n++
                    print n
                }' |
            sort -n | awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : 0 }' > "$file.part"
        mv "$file.part" "$file"
    fi
    cat "$file"
}

# The development sets usable in MODE (their rows hear three nodes or more at the median, and the default answers
# more than half their rows), but HELD: usable MODE [HELD].
usable() {
    local name
    for name in "${names[@]}"; do
        [ "$name" = "${2:-}" ] && continue
        [ "$(heard "$name")" -ge 3 ] || continue
        [ "$(dev "$name" "$1" - - -)" = miss ] && continue
        printf '%s\n' "$name"
    done
}

# The rule by which a value replaces the default: over the usable development sets (but HELD), its medians' sum is
# lower than the default's by more than MARGIN metres (default 0.05, about the spread of the filter's seeds on one
# dataset), it is better than the default on at least two sets and on more sets than it is worse on, and it misses
# half the rows of none. Among the values that pass, the lowest sum; none passing, the default. So no one set (a
# development set answered at 12 m weighs most in a sum) decides alone. choose LINE [HELD] → "VALUE SUM DEFAULT-SUM".
choose() {
    local mode parameter values standard value name m d sum better worse best best_sum="" standard_sum=0
    read -r mode parameter values <<< "$1"
    standard=${values%% *}
    best=$standard
    mapfile -t sets < <(usable "$mode" "${2:-}")
    for name in "${sets[@]}"; do
        d=$(dev "$name" "$mode" "$parameter" "$standard" "$standard")
        standard_sum=$(awk -v a="$standard_sum" -v b="$d" 'BEGIN { print a + b }')
    done
    for value in $values; do
        [ "$value" = "$standard" ] && continue
        sum=0 better=0 worse=0
        for name in "${sets[@]}"; do
            m=$(dev "$name" "$mode" "$parameter" "$value" "$standard")
            if [ "$m" = miss ]; then
                sum=miss
                break
            fi
            d=$(dev "$name" "$mode" "$parameter" "$standard" "$standard")
            sum=$(awk -v a="$sum" -v b="$m" 'BEGIN { print a + b }')
            awk -v a="$m" -v b="$d" 'BEGIN { exit !(a < b) }' && better=$((better + 1))
            awk -v a="$m" -v b="$d" 'BEGIN { exit !(a > b) }' && worse=$((worse + 1))
        done
        [ "$sum" = miss ] && continue
        [ "$better" -ge 2 ] && [ "$better" -gt "$worse" ] || continue
        awk -v a="$sum" -v b="$standard_sum" -v margin="${MARGIN:-0.05}" 'BEGIN { exit !(a < b - margin) }' || continue
        if [ -z "$best_sum" ] || awk -v a="$sum" -v b="$best_sum" 'BEGIN { exit !(a < b) }'; then
            best=$value
            best_sum=$sum
        fi
    done
    echo "$best ${best_sum:-$standard_sum} $standard_sum"
}

# The held-out dataset's test median in MODE with the settings NAME=VALUE… (none: the default's): held NAME MODE ….
held() {
    local name=$1 mode=$2
    shift 2
    local key=default
    [ $# -gt 0 ] && key=$(printf '%s+' "$@")
    score "$work/$name.$mode.$key.test" "$datasets/$name" "$mode" "$@"
}

# The scores in each mode, and the held-out table of each.
echo "## Leave one venue out"
echo
echo "Each parameter of the default that was chosen on data, chosen again with each real dataset held out: on"
echo "the other datasets' \`train/\` alone (each \`train/\` split by device, alternately, into a survey and a test;"
echo "a value replaces the default when it lowers the sum of their medians by more than ${MARGIN:-0.05} m and is better on at"
echo "least two of them and on more than it is worse on; among those the lowest sum), then scored on the held-out"
echo "dataset's \`test/\` (\`indoor evaluate DATASET --json --method auto --tuning NAME=VALUE\`; \`--particles N\` for"
echo "the particle count; \`--no-survey\` for the parameters of the default without a survey). Produced by"
echo "\`scripts/leave-one-venue-out.sh\`; what each parameter is and where it was first chosen: POSITIONING.md and"
echo "\`indoor evaluate --help\`; the grids: docs/notes/leave-one-venue-out-parameters.md. Of these, the lead time"
echo "was also compared on the test splits when it was first chosen (above); the bars and the grids they choose"
echo "among were set before any score and never compared on a test split."
for mode in "${modes[@]}"; do
    mapfile -t sets < <(usable "$mode")
    left=()
    for name in "${names[@]}"; do
        [[ " ${sets[*]} " == *" $name "* ]] || left+=("$name")
    done
    echo
    if [ "$mode" = survey ]; then
        echo "### With a survey (\`auto\` learning from \`train/\`)"
    else
        echo "### Without a survey (\`auto --no-survey\`)"
    fi
    echo
    if [ ${#left[@]} -gt 0 ]; then
        echo "Development sets that could not score (at the median, their test rows hear fewer than three of the"
        echo "venue's nodes in the 5 s before each, as a survey recorded node by node leaves them, or the default misses"
        echo "half their rows or more), so left out of every choice: ${left[*]}."
        echo
    fi
    echo "| held out | parameter | default | its test median m | chosen on the others | its test median m | chosen on |"
    echo "|---|---|---:|---:|---:|---:|---|"
    for name in "${names[@]}"; do
        base=$(held "$name" "$mode")
        for line in "${parameters[@]}"; do
            read -r line_mode parameter values <<< "$line"
            [ "$line_mode" = "$mode" ] || continue
            standard=${values%% *}
            read -r best _ <<< "$(choose "$line" "$name")"
            if [ "$best" = "$standard" ]; then
                chosen=$base
            else
                chosen=$(held "$name" "$mode" "$parameter=$best")
            fi
            others=$(usable "$mode" "$name" | tr '\n' ' ')
            echo "| $name | $parameter | $(shown "$standard") | $base | $(shown "$best") | $chosen | ${others% } |"
        done
    done
done

# The rule for a default: each parameter chosen the same way on every usable development set.
echo
echo "### Chosen on all datasets' \`train/\`"
echo
echo "The rule for a default: each parameter takes the value the same procedure chooses on every real dataset's"
echo "development set (from \`train/\` alone; sums of their medians, metres). Where the choice is not today's default,"
echo "the default is not changed here: the engine's defaults and the tests that pin their figures move together."
echo
echo "Every development set's median, metres (\`train/\` alone; the default's value first):"
echo
header="| mode | parameter | value |"
rule="|---|---|---:|"
for name in "${names[@]}"; do
    header+=" $name |"
    rule+="---:|"
done
echo "$header sum of the usable |"
echo "$rule---:|"
for line in "${parameters[@]}"; do
    read -r mode parameter values <<< "$line"
    standard=${values%% *}
    mapfile -t sets < <(usable "$mode")
    for value in $values; do
        row="| $mode | $parameter | $(shown "$value") |"
        sum=0
        for name in "${names[@]}"; do
            m=$(dev "$name" "$mode" "$parameter" "$value" "$standard")
            row+=" $m |"
            if [[ " ${sets[*]} " == *" $name "* ]]; then
                sum=$([ "$m" = miss ] || [ "$sum" = miss ] && echo miss || awk -v a="$sum" -v b="$m" 'BEGIN { print a + b }')
            fi
        done
        echo "$row $sum |"
    done
done
echo
echo "A choice is *stable* when the same value is chosen with each dataset held out (the tables above); one that"
echo "flips with a dataset left out is not a value the data agree on, and is not taken."
echo
echo "| mode | parameter | default | its sum m | chosen on all datasets' train/ | its sum m | stable | development sets |"
echo "|---|---|---:|---:|---:|---:|---|---|"
declare -A chosen_settings
for line in "${parameters[@]}"; do
    read -r mode parameter values <<< "$line"
    standard=${values%% *}
    read -r best best_sum standard_sum <<< "$(choose "$line")"
    flips=""
    for name in "${names[@]}"; do
        read -r other _ <<< "$(choose "$line" "$name")"
        [ "$other" = "$best" ] || flips+="${flips:+; }$(shown "$other") with $name held out"
    done
    stable=${flips:+"no: $flips"}
    stable=${stable:-yes}
    [ "$best" = "$standard" ] || [ "$stable" != yes ] || chosen_settings[$mode]+="$parameter=$best "
    sets=$(usable "$mode" | tr '\n' ' ')
    echo "| $mode | $parameter | $(shown "$standard") | $standard_sum | $(shown "$best") | $best_sum | $stable | ${sets% } |"
done
echo
echo "Scored on test after choosing (each dataset's \`test/\` with every stable value chosen above that differs from"
echo "the default, together: \`indoor evaluate DATASET --json --method auto\` with those \`--tuning\` and \`--particles\`"
echo "options, and \`--no-survey\` for the parameters without a survey; nothing was chosen on these figures):"
for mode in "${modes[@]}"; do
    read -r -a settings <<< "${chosen_settings[$mode]:-}"
    echo
    echo "- $mode: ${settings[*]:-every default kept}"
    echo
    echo "| dataset | default's test median m | with the values chosen on all train/ m |"
    echo "|---|---:|---:|"
    for name in "${names[@]}"; do
        base=$(held "$name" "$mode")
        if [ ${#settings[@]} -gt 0 ]; then
            chosen=$(held "$name" "$mode" "${settings[@]}")
        else
            chosen=$base
        fi
        echo "| $name | $base | $chosen |"
    done
done
