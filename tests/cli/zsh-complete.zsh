# zsh -f zsh-complete.zsh COMPLETIONS_DIR PATH_DIR LINE: completes LINE in an interactive zsh in a pty
# and prints what the terminal shows.
# (tests/cli/test-completion.py drives the zsh completion with it)
zmodload zsh/zpty || exit 3
zpty z zsh -f -i
zpty -w z "PS1='%% '; PROMPT2=''; unsetopt zle_bracketed_paste 2>/dev/null; fpath=($1 \$fpath); autoload -Uz compinit; compinit -u -D; zstyle ':completion:*' list-prompt ''; zstyle ':completion:*' menu no; path=($2 \$path); setopt nobeep; print RE''ADY"
# The typed line echoes RE''ADY; only zsh's answer reads READY, so a loaded machine that sends
# both at once cannot make this read swallow the completion's start.
zpty -r z line '*READY*' || exit 4
zpty -n -w z "$3"$'\t'
# Read until the screen has been quiet for 1.6 s after the completion drew (at most 20 s),
# so that a loaded machine is waited for.
out= quiet=0
for (( i = 0; i < 100 && quiet < 8; i++ )); do
  sleep 0.2
  if zpty -rt z chunk; then
    out+=$chunk
    while zpty -rt z chunk; do out+=$chunk; done
    quiet=0
  elif [[ $out == *$'\t'* ]]; then
    (( quiet++ ))
  fi
done
print -r -- "READY$out"
zpty -d z
