"""The web app's routers, one module per concern; `access.py` holds who may see and do what."""
