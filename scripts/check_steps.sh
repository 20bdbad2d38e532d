# Sourced by the device check scripts (gpu_check_graph*.sh, _attnbwd, _gradout, _qkvlayout, _trainranks): each step under its own limit
# within the script's BUDGET seconds, its start, end and failure said, the rest still run.
limit() {   # the step's own limit, or what is left of the budget when less
  local left=$((BUDGET - SECONDS))
  (( $1 < left )) && echo "$1" || echo "$left"
}
step() {    # step NAME LIMIT CMD...: one line before and after, its failure said and the rest still run
  local name=$1 lim; lim=$(limit "$2"); shift 2
  if (( lim < 5 )); then echo "STEP $name skipped: ${SECONDS}s of ${BUDGET}s spent"; return 0; fi
  echo "== $name (limit ${lim}s, at ${SECONDS}s)"
  timeout "$lim" "$@"; local rc=$?
  (( rc != 0 )) && echo "STEP $name failed: rc=$rc"
  echo "== $name ended at ${SECONDS}s"
}
waited() {  # waited NAME PID LOG: a background step's end, said like step's
  wait "$2"; local rc=$?
  echo "== $1 ended at ${SECONDS}s: rc=$rc"
  (( rc != 0 )) && { echo "STEP $1 failed: rc=$rc"; tail -15 "$3"; }
}
