#!/usr/bin/env python3
"""Writes a man page from a program's own --help and a hand-written section file, so that the
page cannot drift from the help: the synopsis, the options and (for dynoscope-cli) every command
with its options come from running the freshly built executable.

  gen-man.py --program PATH --name NAME --sections FILE --version V --output FILE [--commands]

With --commands, the "Commands:" list of PROGRAM --help is read and each command's own --help
(and each subcommand's, for commands whose synopsis names one, like `model check`) becomes a
subsection of COMMANDS. The section file holds the prose: "== HEADING" starts a section,
paragraphs are separated by blank lines, "-- TERM" starts a tagged paragraph (its definition is
the indented lines after it) and `text` is set in bold. Its NAME section is the one-line summary;
DESCRIPTION comes before the generated OPTIONS and COMMANDS, the other sections after them.
"""
import argparse
import datetime
import os
import re
import subprocess
import sys

OPTION_LINE = re.compile(r"^  (\S.*?)(?:\s{2,}(\S.*))?$")


def run_help(program, args):
    env = dict(os.environ, LANGUAGE="C", LC_ALL="C.UTF-8", LANG="C.UTF-8")
    r = subprocess.run([program, *args, "--help"], capture_output=True, text=True, env=env,
                       timeout=60)
    if r.returncode != 0:
        sys.exit(f"gen-man: {program} {' '.join(args)} --help exited {r.returncode}: {r.stderr}")
    return r.stdout


def esc(text):
    """Roff-escapes plain text: backslashes, hyphens (as minus signs, so that options copy and
    paste) and a leading control character."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    if text[:1] in (".", "'"):
        text = "\\&" + text
    return text


def inline(text):
    """esc() plus `code` in bold."""
    parts = text.split("`")
    return "".join(esc(p) if i % 2 == 0 else "\\fB" + esc(p) + "\\fR" for i, p in enumerate(parts))


def parse_help(text):
    """GLib-style help: (usage lines, description paragraphs, [(option, description)])."""
    usage, paragraphs, options = [], [], []
    block = None
    para = []
    for line in text.splitlines():
        if line in ("Usage:",):
            block = "usage"
            continue
        if line.endswith("Options:") or line == "GApplication options":
            if para:
                paragraphs.append(" ".join(para))
                para = []
            block = "help" if line.startswith("Help") or "GApplication" in line else "options"
            continue
        if block == "usage" and line.startswith("  "):
            usage.append(line.strip())
            continue
        if block in ("help", "options"):
            m = OPTION_LINE.match(line)
            if m and block == "options":
                if m.group(1).startswith("-"):
                    options.append([m.group(1), m.group(2) or ""])
                elif options:
                    options[-1][1] += " " + line.strip()
            continue
        block = "text"
        if not line.strip():
            if para:
                paragraphs.append(" ".join(para))
                para = []
        elif line.startswith("Usage: "):
            usage.append(line[len("Usage: "):].strip())
        else:
            para.append(line.strip())
    if para:
        paragraphs.append(" ".join(para))
    return usage, paragraphs, options


def parse_cli_overview(text):
    """dynoscope-cli --help: (synopsis, [(global option, description)], [(command,
    description, [usage lines])])."""
    lines = text.splitlines()
    synopsis = lines[0][len("Usage: "):] if lines and lines[0].startswith("Usage: ") else ""
    options, commands = [], []
    section = None
    for line in lines[1:]:
        if line == "Global options:":
            section = "options"
        elif line == "Commands:":
            section = "commands"
        elif not line.startswith("  "):
            section = None
        elif section == "options":
            name, desc = line[2:22].strip(), line[22:].strip()
            options.append([name, desc])  # no name: a note on the options
        elif section == "commands":
            if line.startswith("           "):
                usage = line.strip()
                commands[-1][2].append(usage[len("dynoscope-cli "):] if
                                       usage.startswith("dynoscope-cli ") else usage)
            else:
                m = re.match(r"^  (\S+)\s+(.*)$", line)
                if m:
                    commands.append((m.group(1), m.group(2), []))
    return synopsis, options, commands


def subcommands(name, usages):
    """The subcommands a command's synopsis names: the lowercase word after the command."""
    found = []
    for u in usages:
        words = u.split()
        if name in words:
            i = words.index(name)
            if i + 1 < len(words) and re.fullmatch(r"[a-z][a-z-]*", words[i + 1]):
                if words[i + 1] not in found:
                    found.append(words[i + 1])
    return found


def parse_sections(path):
    """The hand-written file: [(heading, [("p", text) | ("tp", term, text)])]."""
    sections = []
    item = None
    for raw in open(path, encoding="utf-8"):
        line = raw.rstrip("\n")
        if line.startswith("#"):
            continue
        if line.startswith("== "):
            sections.append((line[3:].strip(), []))
            item = None
            continue
        if not sections:
            continue
        body = sections[-1][1]
        if not line.strip():
            item = None
        elif line.startswith("-- "):
            item = ["tp", line[3:].strip(), ""]
            body.append(item)
        elif item is not None:
            item[-1] = (item[-1] + " " + line.strip()).strip()
        else:
            item = ["p", line.strip()]
            body.append(item)
    return sections


def emit_body(out, body):
    for entry in body:
        if entry[0] == "p":
            out.append(".PP")
            out.append(inline(entry[1]))
        else:
            out.append(".TP")
            out.append("\\fB" + inline(entry[1]) + "\\fR")
            out.append(inline(entry[2]))


def emit_options(out, options):
    for name, desc in options:
        if not name:
            out.append(".PP")
            out.append(esc(desc))
            continue
        out.append(".TP")
        out.append("\\fB" + esc(name) + "\\fR")
        out.append(esc(desc))


def emit_usage(out, program, usages):
    out.append(".nf")
    for u in usages:
        if not u.startswith(program + " "):
            u = program + " " + u
        out.append(esc(u))
    out.append(".fi")


def emit_command(out, program, name, args, summary, usages):
    usage, paragraphs, options = parse_help(run_help(program, args))
    if summary:
        out.append(".PP")
        out.append(esc(summary))
    if usages:
        out.append(".PP")
        emit_usage(out, os.path.basename(program), usages)
    for p in paragraphs:
        out.append(".PP")
        out.append(esc(p))
    if options:
        out.append(".PP")
        out.append("Options of \\fB" + esc(" ".join(args)) + "\\fR:")
        out.append(".RS")
        emit_options(out, options)
        out.append(".RE")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--program", required=True)
    ap.add_argument("--name", required=True)
    ap.add_argument("--sections", required=True)
    ap.add_argument("--version", required=True)
    ap.add_argument("--output", required=True)
    ap.add_argument("--commands", action="store_true")
    a = ap.parse_args()

    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    when = (datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc) if epoch
            else datetime.datetime.fromtimestamp(os.stat(a.sections).st_mtime,
                                                 datetime.timezone.utc))
    sections = parse_sections(a.sections)
    by_name = {h: body for h, body in sections}
    if "NAME" not in by_name or "DESCRIPTION" not in by_name:
        sys.exit(f"gen-man: {a.sections} needs a NAME and a DESCRIPTION section")

    out = [f'.\\" Generated by build-aux/gen-man.py from {a.name} --help and '
           f'{os.path.basename(a.sections)}: do not edit.',
           f'.TH "{a.name.upper()}" "1" "{when:%Y-%m-%d}" "Dynoscope {a.version}" '
           '"User Commands"',
           ".SH NAME",
           esc(a.name) + " \\- " + inline(by_name["NAME"][0][1]),
           ".SH SYNOPSIS"]
    top = run_help(a.program, [])
    if a.commands:
        synopsis, options, commands = parse_cli_overview(top)
        out.append(".B " + esc(a.name))
        out.append(esc(synopsis[len(a.name) + 1:] if synopsis.startswith(a.name + " ")
                       else synopsis))
    else:
        usage, _, options = parse_help(top)
        commands = []
        out.append(".B " + esc(a.name))
        first = usage[0] if usage else a.name
        out.append(esc(first[len(a.name) + 1:] if first.startswith(a.name + " ") else ""))
    out.append(".SH DESCRIPTION")
    emit_body(out, by_name["DESCRIPTION"])
    out.append(".SH OPTIONS")
    emit_options(out, options)
    if commands:
        out.append(".SH COMMANDS")
        for name, summary, usages in commands:
            out.append(".SS " + esc(name))
            subs = subcommands(name, usages)
            if subs:
                out.append(".PP")
                out.append(esc(summary))
                out.append(".PP")
                emit_usage(out, a.name, usages)
                for sub in subs:
                    out.append(".PP")
                    out.append("\\fB" + esc(f"{name} {sub}") + "\\fR")
                    out.append(".RS")
                    emit_command(out, a.program, sub, [name, sub], None, [])
                    out.append(".RE")
            else:
                emit_command(out, a.program, name, [name], summary, usages)
    for heading, body in sections:
        if heading not in ("NAME", "DESCRIPTION"):
            out.append(".SH " + esc(heading))
            emit_body(out, body)
    text = "\n".join(out) + "\n"
    with open(a.output + ".tmp", "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(a.output + ".tmp", a.output)


if __name__ == "__main__":
    main()
