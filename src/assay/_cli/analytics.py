"""The experiment-analytics commands, registered on ``assay`` as one tuple."""

from assay._cli.ab import ab_command
from assay._cli.calibration import judge_calibration_command
from assay._cli.cost import cost_command
from assay._cli.montecarlo import montecarlo_command
from assay._cli.noise import noise_floor_command

ANALYTICS_COMMANDS = (
    ab_command,
    noise_floor_command,
    judge_calibration_command,
    cost_command,
    montecarlo_command,
)
