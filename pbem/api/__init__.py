"""The REST API (``/api/v1/``): thin DRF views over ``pbem.games`` services and selectors."""
