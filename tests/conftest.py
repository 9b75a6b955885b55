"""Shared test fixtures: every test starts from the same random state."""
import random

import numpy as np
import pytest


@pytest.fixture(autouse=True)
def _seed_everything():
    random.seed(0)
    np.random.seed(0)
    yield
