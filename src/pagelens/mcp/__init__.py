"""pagelens as an MCP browser server (``pagelens mcp``; needs the ``mcp`` extra).

:mod:`~pagelens.mcp.tools` (tool schemas from the ActionSpecs, pure),
:mod:`~pagelens.mcp.respond` (the token cap, pure), :mod:`~pagelens.mcp.browsing` (one
client's browser, synchronous), :mod:`~pagelens.mcp.server` (the SDK wiring, stdio / HTTP),
:mod:`~pagelens.commands.mcp` (the CLI command). Nothing is imported here: importing the
package never imports the SDK or Playwright.
"""
