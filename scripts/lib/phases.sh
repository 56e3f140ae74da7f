# Phase timing shared by scripts/verify, scripts/gates and scripts/test-workbook-cli (sourced).
#   phase "Name"    prints the heading and starts the clock
#   done_phase      prints the phase's seconds and, when WORKBOOK_PHASE_LOG names a file,
#                   appends "seconds<TAB>name" to it (.ci/run prints those lines as its table)
phase() { printf '\n==> %s\n' "$*"; phase_name="$*"; phase_start=$SECONDS; }
done_phase() {
  local seconds=$((SECONDS - phase_start))
  printf '    (%ss)\n' "$seconds"
  record_phase "$seconds" "$phase_name"
}
# record_phase SECONDS NAME: one line of the phase table, without a heading.
record_phase() {
  if [ -n "${WORKBOOK_PHASE_LOG:-}" ]; then printf '%s\t%s\n' "$1" "$2" >>"$WORKBOOK_PHASE_LOG"; fi
}
# record_trimmed TEXT: evidence a run gave up for its time budget (WORKBOOK_TRIMMED_LOG, which
# .ci/run prints under its table), e.g. "the solutions' tests: 5 of 20 runs".
record_trimmed() {
  if [ -n "${WORKBOOK_TRIMMED_LOG:-}" ]; then printf '%s\n' "$1" >>"$WORKBOOK_TRIMMED_LOG"; fi
}
# print_phase_table FILE TOTAL: the phases as a Markdown table, with each one's share of TOTAL.
print_phase_table() {
  local file=$1 total=$2
  printf '\n| Phase | Seconds | Share |\n| --- | ---: | ---: |\n'
  awk -F'\t' -v total="$total" '{
      name = $2; if (length(name) > 90) name = substr(name, 1, 87) "..."
      share = total > 0 ? 100 * $1 / total : 0
      printf "| %s | %d | %.0f%% |\n", name, $1, share }' "$file"
  printf '| **Total** | **%d** | 100%% |\n' "$total"
}
