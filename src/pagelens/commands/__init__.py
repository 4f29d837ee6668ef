"""Every ``pagelens`` CLI command, thin: parse arguments, call the library or the harness, print.

The shell on top of everything: nothing below imports this package. :mod:`pagelens.cli` maps
command names to the ``click`` commands here and imports each only when it is invoked.
"""
