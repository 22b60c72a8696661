# bash completion for cyctop                                   -*- shell-script -*-
#
# Options come from each command's own --help (the option tables of
# tui/opt.c print it), event names, presets, trees and models from
# `cyctop list`, so this file never lists them and cannot drift from the
# program.  Installed to $(datadir)/bash-completion/completions/cyctop.

# _cyctop_first_column CMD...: the first word of every row CMD prints
_cyctop_first_column()
{
	"$@" 2>/dev/null | awk 'NF && $1 !~ /^(#|MODEL$)/ { print $1 }'
}

# the long and short options a --help lists (cyctop -b --help for the watch)
_cyctop_options()
{
	"$@" --help 2>/dev/null | grep -oE '(^|[ ,])--?[a-zA-Z][a-zA-Z0-9-]*' | tr -d ' ,' | sort -u
}

_cyctop_events()
{
	# "page-faults|faults   ..." rows: every spelling, then the presets
	_cyctop_first_column "$1" list events | tr '|' '\n'
	"$1" list presets 2>/dev/null | awk '$1 ~ /^@/ { print $1 }'
}

_cyctop_themes()
{
	local d
	printf '%s\n' default light mono high-contrast
	for d in "${XDG_CONFIG_HOME:-$HOME/.config}/cyctop/themes" ${CYCTOP_THEMES:-}; do
		[ -d "$d" ] && (cd "$d" && ls -- *.theme 2>/dev/null) | sed 's/\.theme$//'
	done
}

# the value an option takes, or nothing when it takes none
_cyctop_value()
{
	local prog=$1 prev=$2 cur=$3
	case $prev in
	-e | --events)
		# a comma list: complete the item after the last comma
		local head=${cur%,*} item=${cur##*,}
		[ "$head" = "$cur" ] && head="" || head="$head,"
		COMPREPLY=($(compgen -P "$head" -W "$(_cyctop_events "$prog")" -- "$item"))
		;;
	-A | --arch)
		COMPREPLY=($(compgen -W "auto $(_cyctop_first_column "$prog" list trees | sort -u)" -- "$cur"))
		;;
	--model)
		COMPREPLY=($(compgen -W "$(_cyctop_first_column "$prog" list models)" -- "$cur"))
		;;
	--theme)
		COMPREPLY=($(compgen -W "$(_cyctop_themes)" -- "$cur"))
		compopt -o filenames 2>/dev/null
		COMPREPLY+=($(compgen -f -- "$cur"))
		;;
	--format)
		COMPREPLY=($(compgen -W "text csv json folded pprof flame" -- "$cur"))
		;;
	--mux)
		COMPREPLY=($(compgen -W "time runs" -- "$cur"))
		;;
	--flame-metric)
		# the metrics' leading words (the rest depends on the events)
		COMPREPLY=($(compgen -W "none CPI tree-node-fraction baseline-delta" -- "$cur"))
		;;
	--call-graph)
		COMPREPLY=($(compgen -W "dwarf fp" -- "$cur"))
		;;
	--penalties)
		COMPREPLY=($(compgen -W "desktop server" -- "$cur"))
		compopt -o filenames 2>/dev/null
		COMPREPLY+=($(compgen -f -- "$cur"))
		;;
	--child-output)
		COMPREPLY=($(compgen -W "null tty" -- "$cur"))
		compopt -o filenames 2>/dev/null
		COMPREPLY+=($(compgen -f -- "$cur"))
		;;
	--smt)
		COMPREPLY=($(compgen -W "on off" -- "$cur"))
		;;
	-p | --pid | --process | --tid)
		COMPREPLY=($(compgen -W "$(ps -e -o pid= 2>/dev/null)" -- "$cur"))
		;;
	-i | --input | -o | --output | --symfs | --module | --baseline)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -- "$cur"))
		;;
	-d | --delay | --duration | -n | --iterations | -m | --mmap-pages | --counters | \
		--mux-slice | --runs | -C | --cpu | --clock-hz | --slots | --stall | --pmu)
		COMPREPLY=()  # a number or a name of the user's own
		;;
	*)
		return 1
		;;
	esac
	return 0
}

_cyctop()
{
	local cur prev words cword
	if declare -F _init_completion >/dev/null; then
		_init_completion -n , || return
	else
		cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
		words=("${COMP_WORDS[@]}") cword=$COMP_CWORD
	fi
	local prog=${words[0]} cmd="" i
	local commands="record annotate tree list encode demo diff report help"

	# after -- comes the command to watch: complete it as a command line
	for ((i = 1; i < cword; i++)); do
		if [ "${words[i]}" = -- ]; then
			if declare -F _command_offset >/dev/null; then
				_command_offset $((i + 1))
			else
				COMPREPLY=($(compgen -c -- "$cur"))
			fi
			return
		fi
		case ${words[i]} in
		-*) ;;
		*) [ -z "$cmd" ] && [[ " $commands " == *" ${words[i]} "* ]] && cmd=${words[i]} ;;
		esac
	done

	_cyctop_value "$prog" "$prev" "$cur" && return

	if [[ $cur == -* ]]; then
		if [ -n "$cmd" ]; then
			COMPREPLY=($(compgen -W "$(_cyctop_options "$prog" "$cmd")" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$(_cyctop_options "$prog" -b) --" -- "$cur"))
		fi
		return
	fi
	case $cmd in
	"")
		COMPREPLY=($(compgen -W "$commands" -- "$cur"))
		;;
	list)
		# a kind, or at once a pattern of events (perf list PATTERN)
		[ "$prev" = list ] &&
			COMPREPLY=($(compgen -W "models events presets trees metrics groups
				$(_cyctop_events "$prog")" -- "$cur"))
		;;
	help)
		[ "$prev" = help ] && COMPREPLY=($(compgen -W "${commands% report help} report" -- "$cur"))
		;;
	tree | diff | report)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -- "$cur"))
		;;
	encode)
		COMPREPLY=($(compgen -W "$(_cyctop_events "$prog")" -- "$cur"))
		;;
	esac
}
complete -F _cyctop cyctop
