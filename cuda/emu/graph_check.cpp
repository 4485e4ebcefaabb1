// Runs the graph kernels (ecl_graph*.cu) on the CPU through emu.h in the
// launch sequences of cuda/graph*.go: ECL-CC, Afforest (round 0 by init or
// by linking the first neighbour, k = 1..3) and ECLaf, with and without
// recording a spanning forest, and ECL-CC hooking by priority
// (ecl_graph_prio.cu), on random graphs of many shapes; checks
// the representatives against a serial union-find and every forest
// (n - components edges of the graph, acyclic). Development only:
//   cuda/emu/graph_run.sh [seed]
#include "emu.h"
#include "all_kernels.cu"

#include <cstdio>
#include <cstdlib>
#include <random>
#include <set>
#include <string>
#include <vector>

static int failures = 0;

struct Csr {
  int n = 0;
  std::vector<int> idx, list;
};

static Csr build(int n, const std::vector<std::pair<int, int>>& edges)
{
  std::vector<std::set<int>> adj(n);
  for (auto [a, b] : edges) {
    adj[a].insert(b);
    adj[b].insert(a);
  }
  Csr g;
  g.n = n;
  g.idx.push_back(0);
  for (int v = 0; v < n; v++) {
    for (int u : adj[v]) g.list.push_back(u);
    g.idx.push_back((int)g.list.size());
  }
  return g;
}

static std::vector<int> reference(const Csr& g)
{
  std::vector<int> p(g.n);
  for (int i = 0; i < g.n; i++) p[i] = i;
  auto find = [&](int x) {
    while (p[x] != x) x = p[x] = p[p[x]];
    return x;
  };
  for (int v = 0; v < g.n; v++)
    for (int i = g.idx[v]; i < g.idx[v + 1]; i++) {
      int a = find(v), b = find(g.list[i]);
      if (a != b) p[std::max(a, b)] = std::min(a, b);
    }
  for (int v = 0; v < g.n; v++) p[v] = find(v);
  return p;
}

static bool hasEdge(const Csr& g, int a, int b)
{
  for (int i = g.idx[a]; i < g.idx[a + 1]; i++)
    if (g.list[i] == b) return true;
  return false;
}

static void checkForest(const Csr& g, const std::vector<int>& rep, const std::vector<unsigned long long>& fe, const std::string& what)
{
  std::vector<int> p(g.n);
  for (int i = 0; i < g.n; i++) p[i] = i;
  auto find = [&](int x) {
    while (p[x] != x) x = p[x] = p[p[x]];
    return x;
  };
  for (int v = 0; v < g.n; v++) {
    if (rep[v] == v) continue;
    const int a = (int)(fe[v] >> 32), b = (int)(unsigned)fe[v];
    if (a < 0 || a >= g.n || b < 0 || b >= g.n || !hasEdge(g, a, b)) {
      printf("FAIL %s: vertex %d recorded (%d, %d), not an edge\n", what.c_str(), v, a, b);
      failures++;
      return;
    }
    const int ra = find(a), rb = find(b);
    if (ra == rb) {
      printf("FAIL %s: vertex %d's edge (%d, %d) closes a cycle\n", what.c_str(), v, a, b);
      failures++;
      return;
    }
    p[std::max(ra, rb)] = std::min(ra, rb);
  }
}

enum Alg { ECL, AFF, AFFLINK, EAF, ECLP };

static std::vector<int> run(const Csr& g, Alg alg, int k, bool forest, std::vector<unsigned long long>& fe)
{
  const int n = g.n;
  std::vector<int> nstat(n), wl(n), flags(64);
  fe.assign(n, ~0ull);
  const int* nidx = g.idx.data();
  const int* nlist = g.list.data();
  int* ns = nstat.data();
  int* w = wl.data();
  unsigned long long* f = fe.data();
  const unsigned B = 3, T = ThreadsPerBlock;
  if (alg == ECL) {
    if (forest) {
      emuLaunch(B, T, [&] { ecl_init_f(n, nidx, nlist, ns, f); });
      emuLaunch(B, T, [&] { ecl_compute1_f(n, nidx, nlist, ns, w, f); });
      emuLaunch(B, T, [&] { ecl_compute23_f(n, nidx, nlist, ns, w, f); });
    } else {
      emuLaunch(B, T, [&] { ecl_init(n, nidx, nlist, ns); });
      emuLaunch(B, T, [&] { ecl_compute1(n, nidx, nlist, ns, w); });
      emuLaunch(B, T, [&] { ecl_compute23(n, nidx, nlist, ns, w); });
    }
  } else if (alg == ECLP) {
    emuLaunch(B, T, [&] { prio_block_init(n, nidx, nlist, ns, w); });
    emuLaunch(B, T, [&] { prio_compute1(n, nidx, nlist, ns); });
    emuLaunch(B, T, [&] { prio_least(n, nidx, nlist, ns, w); });
    emuLaunch(B, T, [&] { prio_flatten(n, ns, w); });
    return wl;
  } else if (alg == EAF) {
    emuLaunch(1, T, [&] { eaf_reset(n, flags.data(), 64); });
    emuLaunch(B, T, [&] { ecl_init(n, nidx, nlist, ns); });
    for (int p = 0; p < 64; p++) {
      emuLaunch(B, T, [&] { eaf_compute1(n, nidx, nlist, ns, w, flags.data(), p); });
      emuLaunch(B, T, [&] { eaf_compute2(n, nidx, nlist, ns, w, flags.data(), p); });
      emuLaunch(B, T, [&] { eaf_compute3(n, nidx, nlist, ns, w, flags.data(), p); });
      if (!flags[p]) break;
      if (p == 63) {
        printf("FAIL ECLaf: no convergence\n");
        failures++;
      }
    }
  } else {
    const int from0 = alg == AFF ? 1 : 0;
    if (alg == AFFLINK) {
      emuLaunch(B, T, [&] { aff_identity(n, ns); });
      if (forest) {
        emuLaunch(B, T, [&] { aff_round_f(n, nidx, nlist, ns, 0, 0, f); });
      } else {
        emuLaunch(B, T, [&] { aff_round(n, nidx, nlist, ns, 0, 0); });
      }
    } else if (forest) {
      emuLaunch(B, T, [&] { ecl_init_f(n, nidx, nlist, ns, f); });
    } else {
      emuLaunch(B, T, [&] { ecl_init(n, nidx, nlist, ns); });
    }
    if (alg == AFF) {
      if (forest) {
        emuLaunch(B, T, [&] { aff_compress_links_f(n, nidx, nlist, ns, f); });
      } else {
        emuLaunch(B, T, [&] { aff_compress_links(n, nidx, nlist, ns); });
      }
    }
    emuLaunch(B, T, [&] { aff_compress(n, ns, -1); });
    emuLaunch(1, AffSamples, [&] { aff_sample(n, ns, -1); });
    const int kk = k == 0 ? 2 : k, adaptive = k == 0 ? 1 : 0;
    for (int r = 1; r < kk; r++) {
      if (forest) {
        emuLaunch(B, T, [&] { aff_round_f(n, nidx, nlist, ns, r, adaptive, f); });
      } else {
        emuLaunch(B, T, [&] { aff_round(n, nidx, nlist, ns, r, adaptive); });
      }
      emuLaunch(B, T, [&] { aff_compress(n, ns, adaptive); });
      emuLaunch(1, AffSamples, [&] { aff_sample(n, ns, adaptive); });
    }
    k = kk;
    if (forest) {
      emuLaunch(B, T, [&] { aff_finish1_f(n, nidx, nlist, ns, w, k, from0, f); });
      emuLaunch(B, T, [&] { aff_finish23_f(n, nidx, nlist, ns, w, k, from0, f); });
    } else {
      emuLaunch(B, T, [&] { aff_finish1(n, nidx, nlist, ns, w, k, from0); });
      emuLaunch(B, T, [&] { aff_finish23(n, nidx, nlist, ns, w, k, from0); });
    }
  }
  emuLaunch(B, T, [&] { ecl_flatten(n, ns); });
  return nstat;
}

int main(int argc, char** argv)
{
  const unsigned seed = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
  std::mt19937 rng(seed);
  struct Case {
    std::string name;
    Csr g;
  };
  std::vector<Case> cases;
  auto add = [&](std::string name, int n, std::vector<std::pair<int, int>> e) { cases.push_back({name, build(n, e)}); };
  add("single", 1, {});
  add("isolated", 50, {{3, 49}, {0, 48}});
  add("self loops", 20, {{1, 1}, {2, 3}, {3, 3}, {5, 4}});
  {
    std::vector<std::pair<int, int>> e;
    for (int v = 1; v < 3000; v++) e.push_back({0, v});
    add("star 3000 (hub 0)", 3000, e);
    e.clear();
    for (int v = 0; v < 2999; v++) e.push_back({2999, v});
    add("star 3000 (hub last)", 3000, e);
    e.clear();
    for (int v = 0; v < 400; v++) e.push_back({137, (v * 7919) % 400});
    for (int v = 0; v < 400; v++) e.push_back({v, (v + 1) % 400});
    add("hub 400 of degree 400 plus cycle", 400, e);
  }
  for (int n : {100, 2000}) {
    std::vector<std::pair<int, int>> e;
    std::vector<int> perm(n);
    for (int i = 0; i < n; i++) perm[i] = i;
    std::shuffle(perm.begin(), perm.end(), rng);
    for (int i = 0; i + 1 < n; i++) e.push_back({perm[i], perm[i + 1]});
    add("shuffled path " + std::to_string(n), n, e);
    e.clear();
    for (int i = 0; i + 1 < n; i++) e.push_back({i, i + 1});
    add("path " + std::to_string(n), n, e);
  }
  for (int wd : {1, 7, 64}) {
    const int h = 2000 / wd + 3;
    std::vector<std::pair<int, int>> e;
    for (int y = 0; y < h; y++)
      for (int x = 0; x < wd; x++) {
        const int v = y * wd + x;
        if (x + 1 < wd) e.push_back({v, v + 1});
        if (y + 1 < h) e.push_back({v, v + wd});
      }
    add("grid " + std::to_string(wd) + "x" + std::to_string(h), wd * h, e);
  }
  for (auto [n, m] : std::vector<std::pair<int, int>>{{1000, 300}, {1000, 900}, {3000, 3000}, {2000, 8000}, {500, 20000}}) {
    std::vector<std::pair<int, int>> e;
    std::uniform_int_distribution<int> d(0, n - 1);
    for (int i = 0; i < m; i++) e.push_back({d(rng), d(rng)});
    add("random " + std::to_string(n) + "/" + std::to_string(m), n, e);
  }
  {
    // many components: cliques of 5 and heavy hubs in some of them
    std::vector<std::pair<int, int>> e;
    const int n = 2500;
    for (int c = 0; c < n / 5; c++)
      for (int a = 0; a < 5; a++)
        for (int b = a + 1; b < 5; b++) e.push_back({(c * 5 + a) * 37 % n, (c * 5 + b) * 37 % n});
    for (int v = 0; v < 600; v++) e.push_back({1234, (v * 13) % n});
    add("cliques + hub", n, e);
  }
  const char* names[] = {"ecl", "afforest", "afforest-link", "eclaf", "ecl-prio"};
  int ran = 0;
  for (auto& c : cases) {
    const auto want = reference(c.g);
    for (Alg alg : {ECL, AFF, AFFLINK, EAF, ECLP})
      for (int k = (alg == AFF || alg == AFFLINK ? 0 : 1); k <= (alg == AFF || alg == AFFLINK ? 3 : 1); k++)
        for (bool forest : {false, true}) {
          if ((alg == EAF || alg == ECLP) && forest) continue;
          std::vector<unsigned long long> fe;
          const auto got = run(c.g, alg, k, forest, fe);
          const std::string what = c.name + " " + names[alg] + " k=" + std::to_string(k) + (forest ? " forest" : "");
          ran++;
          if (got != want) {
            int v = 0;
            while (got[v] == want[v]) v++;
            printf("FAIL %s: vertex %d has %d, want %d\n", what.c_str(), v, got[v], want[v]);
            failures++;
            continue;
          }
          if (forest) checkForest(c.g, got, fe, what);
        }
  }
  printf("%d runs, %d failures\n", ran, failures);
  return failures ? 1 : 0;
}
