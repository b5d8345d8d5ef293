from .core import normalize, SchemaError, ArgumentsError
