"""The one exception type the CLI turns into a one-line error and a non-zero exit."""


class UserError(Exception):
    """Bad input or a failed step the user can act on; its message is shown as it is."""


def one_line(e: BaseException, limit: int | None = 300) -> str:
    """`Type: message`, first line only, cut to `limit` characters: how a recorded failure reads."""
    text = f"{type(e).__name__}: {e}".strip()
    return text.splitlines()[0][:limit] if text else type(e).__name__
