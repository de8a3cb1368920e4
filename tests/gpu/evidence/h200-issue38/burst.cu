// Empty kernels launched back to back for SECONDS (default 8): prints how many and the rate.
#include <cstdio>
#include <cstdlib>
#include <chrono>
#include <cuda_runtime.h>
__global__ void empty()
{
}
int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 8;
	long n = 0;
	cudaFree(0);
	auto t0 = std::chrono::steady_clock::now();
	for (;;) {
		for (int i = 0; i < 1000; i++)
			empty<<<1, 1> > >();
		n += 1000;
		if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > secs)
			break;
	}
	cudaDeviceSynchronize();
	double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
	printf("{\"launches\": %ld, \"seconds\": %.3f, \"per_s\": %.0f}\n", n, s, n / s);
	return 0;
}
