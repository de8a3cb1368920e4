// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The C++ fixture: a namespaced function and a method, mangled in the symbol table. */
#include <cstdio>

namespace gputop_fix
{
__attribute__((noinline)) int compute(int x, double y)
{
	__asm__ volatile("" : "+r"(x));
	return x + (int)y;
}

struct Widget {
	__attribute__((noinline)) long spin(long n)
	{
		__asm__ volatile("" : "+r"(n));
		return n * 7;
	}
};
} // namespace gputop_fix

int main()
{
	std::printf("compute %p\n", reinterpret_cast<void *>(&gputop_fix::compute));
	long (gputop_fix::Widget::*spin)(long) = &gputop_fix::Widget::spin;
	void *p;
	__builtin_memcpy(&p, &spin, sizeof(p)); /* a non-virtual member: its address first */
	std::printf("spin %p\n", p);
	std::printf("ready\n");
	std::fflush(stdout);
	while (std::getchar() != EOF)
		;
	gputop_fix::Widget w;
	return (int)w.spin(gputop_fix::compute(1, 2.0)) == 0;
}
