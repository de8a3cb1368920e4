/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Calls of NVIDIA driver functions (nvidia_driver.bpf.c), one counter per probed function. */
#ifndef GPUTOP_NVIDIA_DRIVER_H
#define GPUTOP_NVIDIA_DRIVER_H

#define NV_DRV_FNS 16 /* functions probed at most; one fentry program each */

#endif
