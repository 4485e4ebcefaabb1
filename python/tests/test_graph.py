import json
import os

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

import cclabel
from conftest import DATA


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "lil"])
@pytest.mark.parametrize("n,density", [(1, 0.0), (50, 0.0), (300, 0.003), (2000, 0.0008)])
def test_random_graphs(fmt, n, density):
    rng = np.random.default_rng(n)
    m = sp.random(n, n, density=density, format=fmt, random_state=rng)
    n_ref, want = connected_components(m, directed=False)
    k, got = cclabel.graph_components(m, threads=2)
    assert k == n_ref and got.dtype == np.int32 and np.array_equal(got, want)
    # Directed input: weak components.
    n_w, want_w = connected_components(m, directed=True, connection="weak")
    assert np.array_equal(cclabel.graph_components(m)[1], want_w)


@pytest.mark.parametrize("dt", [np.int32, np.int64])
def test_indptr_indices(dt):
    m = sp.random(500, 500, density=0.002, format="csr", random_state=1)
    _, want = connected_components(m, directed=False)
    k, got = cclabel.graph_components((m.indptr.astype(dt), m.indices.astype(dt)))
    assert np.array_equal(got, want)


def test_graph_errors():
    with pytest.raises(ValueError):
        cclabel.graph_components((np.array([0, 1]), np.array([5])))
    with pytest.raises(ValueError):
        cclabel.graph_components((np.array([0, 2, 1]), np.array([0, 1])))
    with pytest.raises(ValueError):
        cclabel.graph_components(sp.random(3, 4, density=0.5, format="csr"))
    with pytest.raises(TypeError):
        cclabel.graph_components([1, 2, 3])


@pytest.mark.skipif(not os.path.isdir(DATA), reason="no ../shared/data")
def test_shared_graphs():
    cases = json.load(open(os.path.join(DATA, "graphs.json")))
    done = 0
    for c in cases:
        path = os.path.join(DATA, c["file"])
        if not path.endswith(".mtx"):
            continue
        m = scipy.io.mmread(path).tocoo()
        # Every stored entry is an edge, explicit zeros included.
        g = sp.csr_matrix((np.ones(m.nnz), (m.row, m.col)), shape=m.shape)
        k, got = cclabel.graph_components(g)
        n_ref, want = connected_components(g, directed=False)
        assert k == n_ref == c["components"], c["file"]
        assert np.array_equal(got, want)
        assert np.bincount(got).max() == c["largest"]
        done += 1
    assert done > 0
