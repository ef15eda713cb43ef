"""Reaching the Hugging Face Hub before loading a name from it: fail at once, and say how to work offline.

A language model (``--lm gpt2``) or word vectors (``--vectors glove-6b-100d``) named by their Hub id are
fetched by ``transformers`` / ``huggingface_hub``, which, on a machine without network (most clusters' compute
nodes), retry for up to a minute before they give up with a message that names neither ``HF_HUB_OFFLINE`` nor a
local folder. :func:`hub_load_options` is called before such a load instead: one ``HEAD`` request to the Hub's
endpoint (``huggingface_hub.constants.ENDPOINT``, which ``HF_ENDPOINT`` sets) with a short timeout, made once per
process, tells whether the Hub answers. When it does not, a name already in the local cache is loaded from
there (``local_files_only=True``), and any other name is an :class:`~amreval.errors.InputError` with the recipe:
download it once where there is network access, set ``HF_HUB_OFFLINE=1`` where there is none, or give a local
folder or file.

Nothing is probed when ``HF_HUB_OFFLINE`` is set (the libraries then read their cache at once), or for a local
folder or file (the callers do not ask).

Example:
    >>> offline_recipe("gpt2", "language model", "--lm FOLDER (a folder written by save_pretrained)")[:46]
    'gpt2: the Hugging Face Hub cannot be reached ('
"""

from __future__ import annotations

import os
import threading
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

from amreval.errors import InputError

__all__ = [
    "PROBE_TIMEOUT",
    "hub_endpoint",
    "hub_offline",
    "hub_reachable",
    "hub_load_options",
    "offline_recipe",
    "cached_file",
]

#: Seconds the probe waits for the Hub's answer.
PROBE_TIMEOUT = 2.0

_OFFLINE_VARIABLES = ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")
_REACHABLE: dict[str, bool] = {}
_LOCK = threading.Lock()


def hub_endpoint() -> str:
    """The Hub's address as ``huggingface_hub`` uses it (``HF_ENDPOINT`` or https://huggingface.co)."""
    try:
        from huggingface_hub import constants
    except ImportError:
        return os.environ.get("HF_ENDPOINT", "https://huggingface.co").rstrip("/")
    return str(constants.ENDPOINT).rstrip("/")


def hub_offline() -> bool:
    """Whether ``HF_HUB_OFFLINE`` (or ``TRANSFORMERS_OFFLINE``) asks the libraries not to use the network (as
    the environment says, or as ``huggingface_hub`` read it when imported)."""
    if any(os.environ.get(v, "").strip().upper() in ("1", "ON", "YES", "TRUE") for v in _OFFLINE_VARIABLES):
        return True
    try:
        from huggingface_hub import constants
    except ImportError:
        return False
    return bool(constants.HF_HUB_OFFLINE)


def hub_reachable(timeout: float = PROBE_TIMEOUT) -> bool:
    """Whether the Hub's endpoint answers a ``HEAD`` request within ``timeout`` seconds (any HTTP answer,
    an error status too: something answered). Asked once per process and endpoint."""
    endpoint = hub_endpoint()
    with _LOCK:
        if endpoint not in _REACHABLE:
            request = urllib.request.Request(endpoint + "/", method="HEAD")
            try:
                with urllib.request.urlopen(request, timeout=timeout):
                    pass
                reachable = True
            except urllib.error.HTTPError:
                reachable = True
            except (OSError, ValueError):  # refused, no route, no DNS, timed out; a malformed endpoint
                reachable = False
            _REACHABLE[endpoint] = reachable
        return _REACHABLE[endpoint]


def offline_recipe(name: str, what: str, local: str) -> str:
    """The message for ``name`` (``what`` it is) when the Hub cannot be reached and it is not cached; ``local``
    says how to give a local folder or file instead."""
    return (
        f"{name}: the Hugging Face Hub cannot be reached ({hub_endpoint()} gave no answer within "
        f"{PROBE_TIMEOUT:g} s) and the local Hugging Face cache holds no {what} of that name. To work offline: "
        f"download it once where there is network access (it is then cached, and read from the cache with "
        f"HF_HUB_OFFLINE=1 set on the machine without network, so that nothing is tried), or give {local}"
    )


def hub_load_options(name: str, what: str, local: str, cached: Callable[[], bool]) -> dict[str, Any]:
    """The keywords a Hub load of ``name`` needs here: ``{}`` when the Hub answers or ``HF_HUB_OFFLINE`` is
    set (the library then decides), ``{"local_files_only": True}`` when the Hub does not answer but
    ``cached()`` says the name is in the local cache.

    Raises:
        InputError: the Hub does not answer and the name is not cached (:func:`offline_recipe`).
    """
    if hub_offline() or hub_reachable():
        return {}
    if cached():
        return {"local_files_only": True}
    raise InputError(offline_recipe(name, what, local))


def cached_file(repo_id: str, filename: str, **kwargs: Any) -> bool:
    """Whether ``huggingface_hub`` has ``filename`` of ``repo_id`` in its cache (False without it)."""
    try:
        from huggingface_hub import try_to_load_from_cache
    except ImportError:
        return False
    try:
        found = try_to_load_from_cache(repo_id, filename, **kwargs)
    except (ValueError, OSError):  # not a repository id
        return False
    return isinstance(found, str)
