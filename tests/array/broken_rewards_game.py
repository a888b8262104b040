"""RockPaperScissors with a broken getReward, importable by module path for the CLI test."""

from .broken_games import broken

globals().update({k: v for k, v in vars(broken("rewards")).items() if not k.startswith("__")})
