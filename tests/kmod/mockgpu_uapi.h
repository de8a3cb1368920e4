/* SPDX-License-Identifier: GPL-2.0 */
/* The mock GPU's ioctls, shared by the module and its test client. */
#ifndef MOCKGPU_UAPI_H
#define MOCKGPU_UAPI_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define MOCKGPU_RINGS 3 /* gfx_0.0.0, comp_1.0.0, sdma0 */
#define MOCKGPU_NO_DEP 0xffffffffU

struct mockgpu_submit {
	__u32 ring; /* 0 .. MOCKGPU_RINGS - 1 */
	__u32 count; /* jobs pushed by this call, back to back */
	__u32 duration_us; /* each job's execution time on the mock hardware */
	__u32 dep_ring; /* each job depends on the last job submitted to this ring, or NO_DEP */
};

#define MOCKGPU_IOC_SUBMIT _IOW('M', 1, struct mockgpu_submit)
/* Waits until every job this file submitted has finished. */
#define MOCKGPU_IOC_WAIT _IO('M', 2)

#endif
