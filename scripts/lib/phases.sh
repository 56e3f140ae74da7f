# Phase timing shared by scripts/verify, scripts/gates and scripts/test-workbook-cli (sourced).
#   phase "Name"    prints the heading and starts the clock
#   done_phase      prints the phase's seconds and, when WORKBOOK_PHASE_LOG names a file,
#                   appends "seconds<TAB>name<TAB>cores busy" to it (.ci/run prints those lines
#                   as its table)
phase() { printf '\n==> %s\n' "$*"; phase_name="$*"; phase_start=$SECONDS; phase_usage=$(processor_usage); }
done_phase() {
  local seconds=$((SECONDS - phase_start))
  printf '    (%ss)\n' "$seconds"
  record_phase "$seconds" "$phase_name" "$(cores_busy_since "$phase_usage")"
}
# processor_usage: "<nanoseconds of the clock> <jiffies the processors were busy>", from
# /proc/stat (user, nice, system, irq, softirq, steal); empty where there is no /proc/stat.
processor_usage() {
  [ -r /proc/stat ] || return 0
  printf '%s ' "$(date +%s%N)"
  awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat
}
# cores_busy_since USAGE: how many processors were busy on average since USAGE (from
# processor_usage), to one decimal: 2.0 on 2 cores means the phase left none idle. Whatever
# else ran on the machine counts too. Empty without /proc/stat.
cores_busy_since() {
  [ -n "$1" ] || return 0
  local now; now=$(processor_usage)
  [ -n "$now" ] || return 0
  awk -v start="$1" -v now="$now" -v hz="$(getconf CLK_TCK)" 'BEGIN {
      split(start, a, " "); split(now, b, " ")
      seconds = (b[1] - a[1]) / 1e9
      if (seconds > 0) printf "%.1f\n", (b[2] - a[2]) / hz / seconds }'
}
# children_processor_seconds FILE: the processor-seconds (user and system) of the shell's ended
# children, from `times >FILE` run in that shell (not in a subshell, which counts its own
# children: none). `times` prints the shell's own time, then its children's: "4m12.500s 0m22.127s".
children_processor_seconds() {
  tail -1 "$1" | awk '{
      total = 0
      for (i = 1; i <= 2; i++) { split($i, part, "m"); sub("s", "", part[2]); total += part[1] * 60 + part[2] }
      printf "%.0f\n", total }'
}
# record_phase SECONDS NAME [CORES]: one line of the phase table, without a heading.
record_phase() {
  if [ -n "${WORKBOOK_PHASE_LOG:-}" ]; then printf '%s\t%s\t%s\n' "$1" "$2" "${3:-}" >>"$WORKBOOK_PHASE_LOG"; fi
}
# record_trimmed TEXT: evidence a run gave up for its time budget (WORKBOOK_TRIMMED_LOG, which
# .ci/run prints under its table), e.g. "the solutions' tests: 5 of 20 runs".
record_trimmed() {
  if [ -n "${WORKBOOK_TRIMMED_LOG:-}" ]; then printf '%s\n' "$1" >>"$WORKBOOK_TRIMMED_LOG"; fi
}
# print_phase_table FILE TOTAL [CORES]: the phases as a Markdown table, with each one's share of
# TOTAL and the processors it kept busy (CORES: the whole run's).
print_phase_table() {
  local file=$1 total=$2 cores=${3:-}
  printf '\n| Phase | Seconds | Share | Cores busy (of %s) |\n| --- | ---: | ---: | ---: |\n' "$(getconf _NPROCESSORS_ONLN)"
  awk -F'\t' -v total="$total" '{
      name = $2; if (length(name) > 90) name = substr(name, 1, 87) "..."
      share = total > 0 ? 100 * $1 / total : 0
      printf "| %s | %d | %.0f%% | %s |\n", name, $1, share, ($3 == "" ? "—" : $3) }' "$file"
  printf '| **Total** | **%d** | 100%% | %s |\n' "$total" "${cores:-—}"
}
