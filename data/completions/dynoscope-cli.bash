# bash completion for dynoscope-cli.
# The commands and each command's options come from dynoscope-cli's own --help, so that they
# follow the program; --table is completed from the tables of the --db or --endpoint on the line
# (a quiet ListTables, at most 2 s), --profile from the AWS config and credentials files.

# The words of `dynoscope-cli ARGS --help` lines that start an option: "--name" and "-n".
_dynoscope_cli_help_options ()
{
  "$1" "${@:2}" --help 2>/dev/null \
    | sed -n -e '/^Help Options:/,/^$/d' \
        -e 's/^  \(-[A-Za-z?]\), \(--[A-Za-z0-9-]*\).*/\1\n\2/p' \
        -e 's/^  \(--[A-Za-z0-9-]*\).*/\1/p'
}

# The commands of `dynoscope-cli --help`.
_dynoscope_cli_commands ()
{
  "$1" --help 2>/dev/null | sed -n -e '/^Commands:/,/^$/s/^  \([a-z][a-z0-9-]*\) .*/\1/p'
}

# The subcommands COMMAND's synopses name in `dynoscope-cli --help` (model check, snapshot base).
_dynoscope_cli_subcommands ()
{
  "$1" --help 2>/dev/null \
    | sed -n -e "s/^ *dynoscope-cli .*\\b$2 \\([a-z][a-z-]*\\)\\b.*/\\1/p" | sort -u
}

# The profile names of the AWS config ("[profile NAME]", "[default]") and credentials ("[NAME]").
_dynoscope_cli_profiles ()
{
  local config=${AWS_CONFIG_FILE:-$HOME/.aws/config}
  local credentials=${AWS_SHARED_CREDENTIALS_FILE:-$HOME/.aws/credentials}
  {
    [ -r "$config" ] && sed -n -e 's/^[[:space:]]*\[[[:space:]]*profile[[:space:]]\{1,\}\([^]]*[^][:space:]]\)[[:space:]]*\].*/\1/p' \
      -e 's/^[[:space:]]*\[[[:space:]]*\(default\)[[:space:]]*\].*/\1/p' "$config"
    [ -r "$credentials" ] && sed -n -e 's/^[[:space:]]*\[[[:space:]]*\([^][:space:]][^]]*[^][:space:]]\|[^][:space:]]\)[[:space:]]*\].*/\1/p' "$credentials"
  } 2>/dev/null | sort -u
}

# The table names of the connection in the array _dynoscope_cli_connection (--db PATH, or
# --endpoint URL with --profile/--region), from a quiet ListTables.
_dynoscope_cli_tables ()
{
  local prog=$1
  local i path
  [ ${#_dynoscope_cli_connection[@]} -gt 0 ] || return
  # A --db that does not exist yet has no tables (and the CLI would create it).
  for ((i = 0; i < ${#_dynoscope_cli_connection[@]}; i += 2)); do
    if [ "${_dynoscope_cli_connection[i]}" = --db ]; then
      path=${_dynoscope_cli_connection[i + 1]}
      [ "${path:0:2}" = "~/" ] && path=$HOME/${path:2}
      [ -f "$path" ] || return
      _dynoscope_cli_connection[i + 1]=$path
    fi
  done
  local run=()
  command -v timeout >/dev/null 2>&1 && run=(timeout 2)
  "${run[@]}" "$prog" "${_dynoscope_cli_connection[@]}" call --compact ListTables '{}' \
    </dev/null 2>/dev/null \
    | sed -n -e 's/.*"TableNames":[[:space:]]*\[\([^]]*\)\].*/\1/p' \
    | tr ',' '\n' | sed -n -e 's/^[[:space:]]*"\(.*\)"[[:space:]]*$/\1/p'
}

_dynoscope_cli ()
{
  local cur=${COMP_WORDS[COMP_CWORD]} prev=""
  local prog=${COMP_WORDS[0]}
  local i word command="" sub="" value
  _dynoscope_cli_connection=()
  COMPREPLY=()
  # An installed dynoscope-cli, or the one named on the line (./build/src/cli/dynoscope-cli).
  case $prog in
    */*) ;;
    *) prog=$(command -v "$prog" 2>/dev/null) || return 0 ;;
  esac
  [ -x "$prog" ] || return 0
  # "--opt=value" arrives as "--opt" "=" "value" with the default COMP_WORDBREAKS.
  if [ "$cur" = "=" ]; then
    cur=""
    prev=${COMP_WORDS[COMP_CWORD - 1]}
  elif [ "${COMP_WORDS[COMP_CWORD - 1]}" = "=" ] && [ "$COMP_CWORD" -ge 2 ]; then
    prev=${COMP_WORDS[COMP_CWORD - 2]}
  elif [ "$COMP_CWORD" -ge 1 ]; then
    prev=${COMP_WORDS[COMP_CWORD - 1]}
  fi

  # The global options (and the connection) before the command, the command and its subcommand.
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=${COMP_WORDS[i]}
    value=${COMP_WORDS[i + 1]:-}
    [ "$value" = "=" ] && value=${COMP_WORDS[i + 2]:-}
    if [ -z "$command" ]; then
      case $word in
        --db | --endpoint | --profile | --region | --ca-bundle)
          [ $((i + 1)) -lt "$COMP_CWORD" ] && _dynoscope_cli_connection+=("$word" "$value")
          [ "${COMP_WORDS[i + 1]:-}" = "=" ] && i=$((i + 1))
          i=$((i + 1))
          ;;
        --db=* | --endpoint=* | --profile=* | --region=* | --ca-bundle=*)
          _dynoscope_cli_connection+=("${word%%=*}" "${word#*=}")
          ;;
        -*) ;;
        =) ;;
        *) command=$word ;;
      esac
    elif [ -z "$sub" ] && [[ $word != -* ]]; then
      case $command in
        model | snapshot | exports | s3) sub=$word ;;
      esac
      break
    fi
  done

  case $prev in
    --db | --with-db | --staging | --ca-bundle | --base | --with-export)
      compopt -o filenames 2>/dev/null
      COMPREPLY=($(compgen -f -- "$cur"))
      return 0
      ;;
    --table | -t | --with-table)
      if [ -n "$command" ]; then
        COMPREPLY=($(compgen -W "$(_dynoscope_cli_tables "$prog")" -- "$cur"))
        return 0
      fi
      ;;
    --profile)
      COMPREPLY=($(compgen -W "$(_dynoscope_cli_profiles)" -- "$cur"))
      return 0
      ;;
    --endpoint | --with-endpoint | --region | --host | --port | --auth | --filter | --query \
      | --names | --values | --condition | --update | --projection | --key | --gsi | --bucket \
      | --prefix | --bucket-owner | --time | --from | --to | --recovery-days | --endpoint-url \
      | --content-type)
      return 0
      ;;
    --view)
      COMPREPLY=($(compgen -W "NEW_AND_OLD_IMAGES NEW_IMAGE" -- "$cur"))
      return 0
      ;;
    --lang | -l | --code)
      COMPREPLY=($(compgen -W "cli python js java go rust" -- "$cur"))
      return 0
      ;;
    --format | -f)
      case $command in
        sql) COMPREPLY=($(compgen -W "table jsonl csv" -- "$cur")) ;;
        import | export) COMPREPLY=($(compgen -W "s3 jsonl json csv" -- "$cur")) ;;
        stage-file) COMPREPLY=($(compgen -W "jsonl json csv" -- "$cur")) ;;
        exports) COMPREPLY=($(compgen -W "json ion" -- "$cur")) ;;
      esac
      return 0
      ;;
  esac

  if [ -z "$command" ]; then
    if [[ $cur == -* ]]; then
      COMPREPLY=($(compgen -W "$(_dynoscope_cli_help_options "$prog")" -- "$cur"))
    else
      COMPREPLY=($(compgen -W "$(_dynoscope_cli_commands "$prog")" -- "$cur"))
    fi
    return 0
  fi
  local subs
  subs=$(_dynoscope_cli_subcommands "$prog" "$command")
  if [ -n "$subs" ] && [ -z "$sub" ]; then
    COMPREPLY=($(compgen -W "$subs" -- "$cur"))
    return 0
  fi
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(_dynoscope_cli_help_options "$prog" "$command" $sub) --help" \
                 -- "$cur"))
    return 0
  fi
  # stage-file TABLE FILE: the first argument after the command is a table.
  if [ "$command" = stage-file ]; then
    local after="" args=0
    for ((i = 1; i < COMP_CWORD; i++)); do
      word=${COMP_WORDS[i]}
      if [ -z "$after" ]; then
        [ "$word" = stage-file ] && after=1
        continue
      fi
      case $word in
        --format | --staging) i=$((i + 1)) ;;
        -* | =) ;;
        *) args=$((args + 1)) ;;
      esac
    done
    if [ "$args" -eq 0 ]; then
      COMPREPLY=($(compgen -W "$(_dynoscope_cli_tables "$prog")" -- "$cur"))
      return 0
    fi
  fi
  compopt -o filenames 2>/dev/null
  COMPREPLY=($(compgen -f -- "$cur"))
  return 0
}

complete -F _dynoscope_cli dynoscope-cli
