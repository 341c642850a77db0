# zsh -f zsh-complete.zsh COMPLETIONS_DIR PATH_DIR LINE: completes LINE in an interactive zsh in a pty
# and prints what the terminal shows.
# (tests/cli/test-completion.py drives the zsh completion with it)
zmodload zsh/zpty || exit 3
zpty z zsh -f -i
# Ctrl-X m shows the message COMPLETION_DONE: zle reads keys in order, so it shows once the
# completion before it has drawn (however long the completer's own commands take).
zpty -w z "PS1='%% '; PROMPT2=''; unsetopt zle_bracketed_paste 2>/dev/null; fpath=($1 \$fpath); autoload -Uz compinit; compinit -u -D; zstyle ':completion:*' list-prompt ''; zstyle ':completion:*' menu no; path=($2 \$path); setopt nobeep; done_mark() { local w=DONE; zle -M \"COMPLETION_\$w\" }; zle -N done_mark; bindkey '^Xm' done_mark; print RE''ADY"
# The typed line echoes RE''ADY; only zsh's answer reads READY, so a loaded machine that sends
# both at once cannot make this read swallow the completion's start.
zpty -r z line '*READY*' || exit 4
zpty -n -w z "$3"$'\t'$'\x18'm
# Everything up to the mark: the completion's drawing (the mark's own definition was echoed
# as COMPLETION_$w, never as the word read for).
zpty -r z out '*COMPLETION_DONE*' || exit 5
print -r -- "READY$out"
zpty -d z
