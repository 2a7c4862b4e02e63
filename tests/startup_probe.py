"""The `stateside` command, run in a child Python with a probe (tests/test_startup.py,
tests/test_paint_first.py): at the command's "painted" line the probe prints the values the
test names, evaluated there (`made` lists the enums PySide6 has set up so far, `gc` and
`sys` are imported); when the command returns it prints whether the collector is on. The
command's arguments are the child's own (`python -c SCRIPT --mode america`)."""
from __future__ import annotations

import textwrap


def probe_script(*values: str) -> str:
    return textwrap.dedent(f"""
        import builtins, enum, gc, sys
        made = []
        build = enum.EnumType._create_
        def record(cls, name, names, **kw):
            made.append(name)
            return build(cls, name, names, **kw)
        enum.EnumType._create_ = record
        say = builtins.print
        def watch(*args, **kw):
            if args and args[0] == "painted":
                say({", ".join(values)}, flush=True)
            say(*args, **kw)
        builtins.print = watch
        from stateside.__main__ import main
        code = main(sys.argv[1:])
        say("after gc-on", gc.isenabled(), flush=True)
        sys.exit(code)
    """)
