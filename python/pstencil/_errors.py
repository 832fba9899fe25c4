"""pstencil's exceptions: one class per library status (core/ps_status.h)."""


class Error(Exception):
    """A pstencil library error; ``status`` is the PS_* code, the message its detail."""

    status = None

    def __init__(self, message, status=None):
        super().__init__(message)
        if status is not None:
            self.status = status


class InvalidError(Error, ValueError):
    """PS_EINVAL, PS_ERANGE (not a blow-up), PS_EDIM: an option or input value is invalid."""


class BlowUpError(Error, ArithmeticError):
    """PS_ERANGE with the run's blow-up: an ocean cell became non-finite."""


class NoMemoryError(Error, MemoryError):
    """PS_ENOMEM: out of memory, or the grid is too large for this machine."""


class FileError(Error, OSError):
    """PS_EIO, PS_ENETCDF, PS_EFORMAT, PS_ETRUNC, PS_EEXIST, PS_ENOVAR, PS_EAMBIG:
    reading or writing a file."""


class BackendError(Error, RuntimeError):
    """PS_ENOBACKEND, PS_EUNAVAIL, PS_ENODEVICE, PS_EABI, PS_EDEVICE,
    PS_EUNSUPPORTED, PS_ENOTIMPL: the backend or its device cannot do the run."""


class CancelledError(Error):
    """PS_ECANCELED not caused by a Python exception (which is re-raised instead)."""


class InternalError(Error, RuntimeError):
    """PS_EINTERNAL, PS_EMISMATCH and any other code: an invariant failed."""


# status codes (core/ps_status.h) to classes
_BY_STATUS = {
    -1: InvalidError, -2: NoMemoryError, -3: FileError, -4: FileError, -5: FileError,
    -6: FileError, -7: FileError, -8: InvalidError, -9: InvalidError, -10: BackendError,
    -11: BackendError, -12: BackendError, -13: BackendError, -14: BackendError,
    -15: BackendError, -16: FileError, -17: FileError, -18: InternalError,
    -19: InternalError, -20: BackendError, -21: CancelledError,
}


def error_for(status, message, blew_up=False):
    """The exception for library status @p status with its detail @p message."""
    cls = BlowUpError if blew_up else _BY_STATUS.get(status, InternalError)
    return cls(message, status)
