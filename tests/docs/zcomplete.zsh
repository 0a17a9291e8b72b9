# zcomplete.zsh DIR LINE...: types each LINE and a Tab into an interactive
# zsh whose completion system loads _cudalab from DIR, and prints each line
# as completion left it, one a line.  cudalab must be in PATH.
zmodload zsh/zpty || exit 2
dir=$1
shift
zpty z zsh -f -i
zpty -w z "PS1='> '; fpath=($dir \$fpath); autoload -Uz compinit; compinit -u -D; unsetopt beep"
for line in "$@"; do
	# Tab, then Ctrl-A and Ctrl-E around a print of the whole line
	zpty -w -n z "$line"$'\t\x01print -r -- DONE:\x05\n'
	zpty -r z out "*"$'\n'"DONE:*"$'\r' || exit 3
	out=${out##*$'\n'DONE:}
	print -r -- "${out%$'\r'}"
done
zpty -d z
