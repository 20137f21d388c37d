"""The MCP app ``langgraph.json`` mounts (``"http": {"app": "./graphs/mcp_app.py:app"}``).

The server loads this file by its path under a module name of its own, outside
``sys.modules``; the implementation (``adamm/mcp_server.py``) is imported here as the package
module it is, so that its models and dataclasses resolve their annotations.
"""

from adamm.mcp_server import app

__all__ = ["app"]
