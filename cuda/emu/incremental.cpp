// Runs the incremental-connectivity kernels (kernels/ecl_incremental.cu)
// on the CPU through emu.h against a plain union-find: random batches with
// self-loops, repeats and pairs out of range, compress passes and the
// giant bitmap at random points, hook passes of random sizes, queries and
// the component count after each batch. Development only:
//   cuda/emu/run.sh incremental
#include "emu.h"
#include "all_kernels.cu"
#include <random>
#include <cstdio>
#include <vector>
static int find(std::vector<int>& p, int x){ while(p[x]!=x) x=p[x]=p[p[x]]; return x; }
int main(){
  int failures=0;
  std::mt19937 rng(1);
  for (int trial=0; trial<40; trial++){
    int n = trial==0?1: 1+rng()%3000;
    std::vector<int> parent(n), ref(n), stat(3); std::vector<unsigned> bits((n+31)/32+1); bool useBits=false;
    for(int i=0;i<n;i++) ref[i]=i;
    int count=n;
    unsigned blocks = 1+rng()%5;
    emuLaunch(blocks, IncThreads, [&]{ inc_init(n, parent.data()); });
    for (int batch=0; batch<6; batch++){
      int m = rng()%4==0?0:(rng()%2? 1 : rng()%(2*n+5));
      std::vector<int> us(m), vs(m);
      for(int i=0;i<m;i++){ us[i]=rng()%n; vs[i]= rng()%5==0?us[i]:rng()%n; }
      bool bad = m>0 && rng()%7==0;
      int badAt=-1;
      if(bad){ badAt=rng()%m; us[badAt]= (rng()%2)? n : -1; if (rng()%2 && badAt+1<m) vs[badAt+1]=n+3; }
      emuLaunch(1,1,[&]{ inc_reset(stat.data()); });
      emuLaunch(blocks, IncThreads, [&]{ inc_check(m, n, us.data(), vs.data(), stat.data()); });
      if (rng()%2) { emuLaunch(blocks, IncThreads, [&]{ inc_compress(n, parent.data()); });
        if (rng()%3) { emuLaunch(1, 32, [&]{ inc_pick_giant(n, parent.data(), stat.data()); }); emuLaunch(blocks, IncThreads, [&]{ inc_giant_bits(n, parent.data(), stat.data(), bits.data()); }); useBits=true;
          int r=stat[2]; for(int v=0;v<n;v++){ bool b=(bits[v>>5]>>(v&31))&1; if(b!=(parent[v]==r)){printf("bits wrong\n");failures++;break;} } } }
      int pass = 1+rng()%(m+1);
      for(int lo=0; lo<m; lo+=pass){ int hi=std::min(m,lo+pass); emuLaunch(blocks, IncThreads, [&]{ inc_hook(lo, hi, us.data(), vs.data(), parent.data(), stat.data(), useBits?bits.data():nullptr); }); }
      if(bad){ if(stat[1]!=badAt){printf("bad: got %d want %d\n", stat[1], badAt); failures++;} if(stat[0]!=0){printf("hooks on bad batch\n");failures++;} continue; }
      if(stat[1]!=IncNoBad){printf("spurious bad %d\n",stat[1]);failures++;}
      for(int i=0;i<m;i++){ int a=find(ref,us[i]), b=find(ref,vs[i]); if(a!=b){ if(a<b) ref[b]=a; else ref[a]=b; count--; } }
      int got = 0; // count roots
      for(int v=0; v<n; v++) { if(parent[v]>v||parent[v]<0){printf("bad parent\n");failures++;break;} }
      // queries
      int q = 1+rng()%50;
      std::vector<int> qu(q), qv(q), qr(q);
      for(int i=0;i<q;i++){ qu[i]=rng()%n; qv[i]=rng()%n; qr[i]=qv[i]; }
      std::vector<int> qu0=qu, qv0=qv;
      emuLaunch(1,1,[&]{ inc_reset(stat.data()); });
      emuLaunch(blocks, IncThreads, [&]{ inc_check(q, n, qu.data(), qv.data(), stat.data()); });
      emuLaunch(blocks, IncThreads, [&]{ inc_connected(q, qu.data(), qv.data(), parent.data(), stat.data()); });
      emuLaunch(blocks, IncThreads, [&]{ inc_representatives(q, qr.data(), parent.data(), stat.data()); });
      for(int i=0;i<q;i++){
        int a=find(ref,qu0[i]), b=find(ref,qv0[i]);
        if ((a==b) != (qu[i]==1)) {printf("connected wrong\n"); failures++;}
        // smallest vertex: ref's root is smallest since we hook larger under smaller
        if (qr[i]!=b){printf("rep wrong %d %d\n", qr[i], b); failures++;}
      }
      got=0; for(int v=0;v<n;v++) if(parent[v]==v) got++;
      if (got!=count){printf("count roots %d want %d\n",got,count);failures++;}
    }
  }
  // hook counting
  {
    int n=5000; std::vector<int> parent(n), stat(3); int m=3000; std::vector<int> us(m), vs(m);
    for(int i=0;i<m;i++){us[i]=rng()%n; vs[i]=rng()%n;}
    emuLaunch(3, IncThreads, [&]{ inc_init(n, parent.data()); });
    emuLaunch(1,1,[&]{ inc_reset(stat.data()); });
    emuLaunch(3, IncThreads, [&]{ inc_hook(0, m, us.data(), vs.data(), parent.data(), stat.data(), nullptr); });
    int roots=0; for(int v=0;v<n;v++) if(parent[v]==v) roots++;
    if (n-stat[0]!=roots){printf("hooks %d roots %d\n", stat[0], roots); failures++;}
    emuLaunch(3, IncThreads, [&]{ inc_random_edges(m, n, 42, us.data(), vs.data()); });
    for(int i=0;i<m;i++) if(us[i]<0||us[i]>=n||vs[i]<0||vs[i]>=n){printf("random out of range\n");failures++;break;}
    printf("random sample %d %d %d %d\n", us[0], vs[0], us[1], vs[1]);
  }
  printf("failures %d\n", failures);
  return failures!=0;
}
