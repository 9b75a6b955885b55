"""scikit-learn's estimator checks (binary modes and the multi-class decision modes)."""

from sklearn.utils.estimator_checks import parametrize_with_checks

from imli import Binarizer, IMLIClassifier


@parametrize_with_checks([
    IMLIClassifier(batch_size=64),
    IMLIClassifier(n_clauses=3, mode="decision_list", batch_size=64),
    Binarizer(),
])
def test_sklearn_compatible(estimator, check):
    check(estimator)
