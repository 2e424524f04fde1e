"""Map and scenario checks with codes of their own (`catandsl lint`), and the balance
report (`catandsl balance`). Lint reads compiled scenarios and dealt maps; nothing
below it imports it."""

from catandsl.lint.codes import CODES
from catandsl.lint.config import ConfigError, LintConfig, find_pyproject, load_config
from catandsl.lint.run import LintResult, lint_path

__all__ = ["CODES", "ConfigError", "LintConfig", "LintResult", "find_pyproject", "lint_path", "load_config"]
