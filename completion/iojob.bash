# Bash completion for iojob. The option names and their values come from the binary being
# completed (iojob --complete-options, iojob --complete-values=OPTION), so they always match
# what it accepts; job files are *.fio, and --section offers the sections of the job files
# already on the line. After a subcommand (iojob report, iojob compare), its own options
# come from iojob SUBCOMMAND --complete-options, and the globs of its files (result sets,
# logs) from iojob SUBCOMMAND --complete-files; the keys, values and jobs after --rows,
# --cols, --where and --job, and compare's labels, from the result sets on the line.

# The result sets among the words after the subcommand (*.jsonl: a log of 10^8 lines
# would be read whole at each TAB).
_iojob_files()
{
	local w
	for w in "${COMP_WORDS[@]:2:COMP_CWORD-2}"; do
		[[ $w == *.jsonl && -f $w ]] && printf '%s\n' "$w"
	done
}

# The [section] names of the job files among the words, [global] left out.
_iojob_sections()
{
	local w line
	for w in "${COMP_WORDS[@]:1}"; do
		[[ $w != -* && -f $w ]] || continue
		while IFS= read -r line; do
			[[ $line =~ ^[[:space:]]*\[([^]]+)\] ]] || continue
			[[ ${BASH_REMATCH[1]} == global ]] || printf '%s\n' "${BASH_REMATCH[1]}"
		done < "$w"
	done
}

_iojob()
{
	local bin=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]} prev= opt= prefix=
	local word kind separate=" " words=() commands=() sub=() globs=('*.fio')
	local IFS=$'\n'

	[[ $bin == "~/"* ]] && bin=$HOME/${bin#"~/"}
	while IFS=$'\t' read -r word kind; do
		[[ $word == --* ]] && continue
		commands+=("$word")	# subcommands, completed as the first word
		[[ $word == "${COMP_WORDS[1]}" ]] && ((COMP_CWORD > 1)) && sub=("$word")
	done < <("$bin" --complete-options 2>/dev/null)
	while IFS=$'\t' read -r word kind; do
		[[ $word == --* ]] && words+=("$word")
		[[ $kind == separate ]] && separate+="${word%=} "
	done < <("$bin" "${sub[@]}" --complete-options 2>/dev/null)
	# The files it reads: job files, or what the subcommand says (iojob SUB --complete-files).
	if ((${#sub[@]})); then
		mapfile -t globs < <("$bin" "${sub[0]}" --complete-files 2>/dev/null)
	fi
	((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}

	# Which option's value is being completed. With '=' in COMP_WORDBREAKS, as by
	# default, bash splits "--rw=ra" into "--rw" "=" "ra"; without it, it is one word.
	if [[ $cur == = && $prev == --* ]]; then
		opt=$prev cur=
	elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then
		opt=${COMP_WORDS[COMP_CWORD - 2]}
	elif [[ $cur == --*=* ]]; then
		opt=${cur%%=*} prefix=${cur%%=*}= cur=${cur#*=}
	elif [[ $prev == --* && $separate == *" $prev "* ]]; then
		opt=$prev
	fi

	if [[ -n $opt ]]; then
		local values
		if [[ $opt == --section ]]; then
			values=$(_iojob_sections)
		elif ((${#sub[@]})); then	# and the keys, values, jobs of the result sets
			values=$("$bin" "${sub[@]}" --complete-values="${opt#--}" $(_iojob_files) \
				2>/dev/null)
		else
			values=$("$bin" --complete-values="${opt#--}" 2>/dev/null)
		fi
		if [[ -n $values ]]; then
			COMPREPLY=($(compgen -P "$prefix" -W "$values" -- "$cur"))
			[[ ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
		else	# free text: most such values are paths (filename, directory, output)
			compopt -o filenames 2>/dev/null
			COMPREPLY=($(compgen -f -- "$cur"))
		fi
		return 0
	fi

	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "${words[*]}" -- "$cur"))
		[[ ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
		return 0
	fi
	compopt -o filenames 2>/dev/null
	COMPREPLY=($(compgen -d -- "$cur"))
	for word in "${globs[@]}"; do
		COMPREPLY+=($(compgen -f -X "!$word" -- "$cur"))
	done
	((COMP_CWORD == 1)) && COMPREPLY+=($(compgen -W "${commands[*]}" -- "$cur"))
	# compare's sides: the labels of the result sets on the line
	[[ ${sub[0]} == compare ]] &&
		COMPREPLY+=($(compgen -W "$("$bin" compare --complete-labels $(_iojob_files) \
			2>/dev/null)" -- "$cur"))
	return 0
}

complete -F _iojob iojob
