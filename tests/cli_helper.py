"""Running the command line inside a test: the exit code and what it printed."""
from fastsweep.cli import main as cli


def run_cli(capsys, *argv):
    """(exit code, stdout, stderr) of ``fastsweep ARGV`` run in this process."""
    try:
        code = cli.main(list(argv))
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err
