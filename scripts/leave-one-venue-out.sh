#!/usr/bin/env bash
# The leave-one-venue-out table of docs/ACCURACY.md: the default's parameters that were chosen on data, chosen again
# with each real dataset held out in turn, on the other datasets' train/ splits alone, and scored on the held-out
# one's test split. scripts/accuracy.sh runs it; alone:
#
#     scripts/leave-one-venue-out.sh [INDOOR [DATASETS]]    # prints the markdown section
#
# INDOOR is the `indoor` binary (default: Server/.build/release/indoor, built first); DATASETS the folder of datasets
# (default: $DATASETS, else datasets/).
#
# Choosing on train/ alone: each dataset's train/ is split by device (its devices in sorted order, alternately) into
# a development set, the even ones its survey and the odd ones its test; `indoor evaluate DEV --method auto --tuning
# NAME=VALUE` scores each value there. A development set whose default misses half its rows or more (a survey whose
# packets are stale at the truth row's time) cannot score anything and is left out of every choice. For a held-out
# dataset, each parameter takes the value with the lowest sum of medians over the other datasets' usable development
# sets (ties to the default), and the held-out test/ is scored with it. No test/ split is looked at when choosing.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
indoor=${1:-}
datasets=${2:-${DATASETS:-"$root/datasets"}}
if [ -z "$indoor" ]; then
    swift build --package-path Server -c release --product indoor >&2
    indoor="$root/Server/.build/release/indoor"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The parameters compared: NAME and its values, the default's first.
parameters=(
    "lead-time 0.25 0 0.5"
    "turn-time 6 2 10"
    "estimator-bar 2 0 1000000000"
)

# The default's median (or "miss" when it misses half the rows or more) on dataset folder $1 with `--tuning` $2
# (none when empty): median FOLDER [NAME=VALUE].
median() {
    local tuning=()
    [ -n "${2:-}" ] && tuning=(--tuning "$2")
    "$indoor" evaluate "$1" --json --method auto "${tuning[@]}" 2> /dev/null |
        sed -E 's/^.*"count":([0-9]+),"misses":([0-9]+),.*"median_m":([^,]*),.*$/\1 \2 \3/' |
        awk '{ print ($3 == "null" || $2 * 2 >= $1) ? "miss" : $3 }'
}

# The development set of each real dataset with a survey: train/ split by device.
names=()
for folder in "$datasets"/*/; do
    [ -f "$folder/nodes.csv" ] && [ -d "$folder/train" ] || continue
    name=$(basename "$folder")
    names+=("$name")
    dev="$work/dev/$name"
    mkdir -p "$dev/train" "$dev/test"
    cp "$folder/nodes.csv" "$dev/"
    tail -n +2 "$folder/train/truth.csv" | cut -d, -f2 | sort -u | awk 'NR % 2 == 0' > "$work/$name.odd"
    for file in sightings truth; do
        awk -F, -v odd="$work/$name.odd" -v train="$dev/train/$file.csv" -v test="$dev/test/$file.csv" '
            BEGIN { while ((getline line < odd) > 0) held[line] = 1 }
            NR == 1 { print > train; print > test; next }
            { print > ($2 in held ? test : train) }' "$folder/train/$file.csv"
    done
done

# Every parameter value's median on every development set: $work/NAME.VALUE.dev.
for line in "${parameters[@]}"; do
    read -r parameter values <<< "$line"
    for value in $values; do
        for name in "${names[@]}"; do
            median "$work/dev/$name" "$parameter=$value" > "$work/$name.$parameter.$value.dev"
        done
    done
done

echo "## Leave one venue out"
echo
echo "Each parameter of the default that was chosen on data, chosen again with each real dataset held out:"
echo "on the other datasets' \`train/\` alone (each \`train/\` split by device, alternately, into a survey and a"
echo "test; the value with the lowest sum of medians over them, ties to the default), then scored on the held-out"
echo "dataset's \`test/\` (\`indoor evaluate DATASET --method auto --tuning NAME=VALUE\`). Produced by"
echo "\`scripts/leave-one-venue-out.sh\`; what each parameter is and where it was first chosen: POSITIONING.md."
echo "Of these, the lead time was also compared on the test splits when it was first chosen (above); the estimator"
echo "bar and the k-NN shares it chooses among were set before any score and never compared on a test split."
unusable=()
for name in "${names[@]}"; do
    [ "$(cat "$work/$name.lead-time.0.25.dev")" = miss ] && unusable+=("$name")
done
if [ ${#unusable[@]} -gt 0 ]; then
    echo "Development sets that could not score (the default misses half their rows or more: their survey's packets"
    echo "are stale at the truth rows' times), so left out of every choice: ${unusable[*]}."
fi
echo
echo "| held out | parameter | default | its test median m | chosen on the others | its test median m | chosen on |"
echo "|---|---|---:|---:|---:|---:|---|"
for held in "${names[@]}"; do
    base=$(median "$datasets/$held")
    for line in "${parameters[@]}"; do
        read -r parameter values <<< "$line"
        standard=${values%% *}
        best=$standard
        best_sum=""
        used=()
        for value in $values; do
            sum=0
            count=0
            for name in "${names[@]}"; do
                [ "$name" = "$held" ] && continue
                [ "$(cat "$work/$name.lead-time.0.25.dev")" = miss ] && continue
                m=$(cat "$work/$name.$parameter.$value.dev")
                [ "$m" = miss ] && continue
                sum=$(awk -v a="$sum" -v b="$m" 'BEGIN { print a + b }')
                count=$((count + 1))
                [ "$value" = "$standard" ] && used+=("$name")
            done
            [ "$count" -gt 0 ] || continue
            if [ -z "$best_sum" ] || awk -v a="$sum" -v b="$best_sum" 'BEGIN { exit !(a < b) }'; then
                best=$value
                best_sum=$sum
            fi
        done
        if [ "$best" = "$standard" ]; then
            chosen=$base
        else
            chosen=$(median "$datasets/$held" "$parameter=$best")
        fi
        echo "| $held | $parameter | $standard | $base | $best | $chosen | ${used[*]:-none} |"
    done
done
