"""The hyperparameter checks of torch 1.13's Python optimizers, with torch's ValueError
messages, in torch's order."""

_NAMES = {"lr": "learning rate", "eps": "epsilon value", "weight_decay": "weight_decay value",
          "momentum_decay": "momentum_decay value"}


def check_at_least_zero(**values):
    for name, value in values.items():
        if not 0.0 <= value:
            raise ValueError(f"Invalid {_NAMES[name]}: {value}")


def check_adam_like(lr, betas, eps, weight_decay):
    check_at_least_zero(lr=lr, eps=eps)
    for i in (0, 1):
        if not 0.0 <= betas[i] < 1.0:
            raise ValueError(f"Invalid beta parameter at index {i}: {betas[i]}")
    check_at_least_zero(weight_decay=weight_decay)
