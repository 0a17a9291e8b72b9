# bash completion for cudalab.  The candidates come from the program itself
# (`cudalab __complete -- WORD...`, one a line): verbs, options, lesson,
# exercise and reading-item ids, backends.  ":file" and ":dir" ask for
# paths.  Installed as share/bash-completion/completions/cudalab.
_cudalab() {
	local line=${COMP_LINE:0:COMP_POINT} cur cand
	local -a words
	read -ra words <<<"$line"
	[[ -z $line || $line == *[[:space:]] ]] && words+=("")
	cur=${words[${#words[@]} - 1]}
	COMPREPLY=()
	while IFS= read -r cand; do
		case $cand in
		:file) compopt -o filenames 2>/dev/null
			mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -- "$cur") ;;
		:dir) compopt -o filenames 2>/dev/null
			mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -d -- "$cur") ;;
		*) COMPREPLY+=("$cand") ;;
		esac
	done < <("${COMP_WORDS[0]}" __complete -- "${words[@]:1}" 2>/dev/null)
	# bash replaces only what follows the last ':' of ssh:HOST
	if [[ $cur == *:* && $COMP_WORDBREAKS == *:* ]]; then
		local pre=${cur%"${cur##*:}"} i
		for i in "${!COMPREPLY[@]}"; do
			COMPREPLY[i]=${COMPREPLY[i]#"$pre"}
		done
	fi
	# "ssh:" wants its host right after it
	if [[ ${#COMPREPLY[@]} == 1 && ${COMPREPLY[0]} == *: ]]; then
		compopt -o nospace 2>/dev/null
	fi
}
complete -F _cudalab cudalab
