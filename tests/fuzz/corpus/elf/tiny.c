int _ZN10gputop_fix7computeEid(int x) { return x + 1; }
static int __attribute__((used, noinline)) local_fn(int x) { return x * 2; }
int exported(int x) { return local_fn(x) + 3; }
