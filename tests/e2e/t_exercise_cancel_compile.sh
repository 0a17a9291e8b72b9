# A check cancelled while nvcc compiles says "cancelled", not COMPILE
# ERROR, and records nothing: Ctrl-C at 80x24, Esc at 120x40.
if [ -z "${NVCC:-}" ]; then echo "no nvcc: skipped"; return 0; fi
EXTRA_ENV="CUDALAB_GPU=0"
for run in 80x24:C-c 120x40:Escape; do
	size=${run%:*} key=${run#*:}
	COLS=${size%x*} ROWS=${size#*x}
	start read vector-add
	wait_for "Exercise: Vector add"
	keys c
	wait_for "check: compiling" 60
	keys "$key"
	wait_for "cancelled: the check was stopped" 30
	! screen | grep -qF "COMPILE ERROR"
	! pgrep -f "$HOME_DIR/cache/" >/dev/null
	keys q
	wait_for "1 Lessons"
	keys q
	wait_for "EXITED-0"
done
cli list exercises --json | tr -d ' \t\n' | grep -q '"id":"vector-add","[^}]*"status":"new"'
