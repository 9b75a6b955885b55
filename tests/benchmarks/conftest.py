import pytest


@pytest.fixture
def usage_error(capsys):
    """Run a benchmark script's ``main(argv)``, expect a usage error (exit code 2) and
    return what it wrote to stderr."""
    def run(main, argv):
        with pytest.raises(SystemExit) as stop:
            main(argv)
        assert stop.value.code == 2
        return capsys.readouterr().err
    return run
