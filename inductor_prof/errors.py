"""The one exception type the CLI turns into a one-line error and a non-zero exit."""


class UserError(Exception):
    """Bad input or a failed step the user can act on; its message is shown as it is."""
