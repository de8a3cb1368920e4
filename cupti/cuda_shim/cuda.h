/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The few CUDA driver API types CUPTI's headers name, for building without a CUDA toolkit (Debian's
 * libcupti-dev has CUPTI's headers but not cuda.h, which is in the 770 MB nvidia-cuda-dev). The
 * library only passes these on as opaque handles or reads none of them; sizes are CUDA's own.
 * A toolkit's cuda.h is used instead where one is present (the Makefile's CUPTI_INCLUDE).
 */
#ifndef GPUTOP_CUDA_SHIM_H
#define GPUTOP_CUDA_SHIM_H

typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUstream_st *CUstream;
typedef struct CUgraph_st *CUgraph;
typedef struct CUgraphNode_st *CUgraphNode;
typedef struct CUgraphExec_st *CUgraphExec;
typedef struct CUuuid_st {
	char bytes[16];
} CUuuid;
typedef struct CUaccessPolicyWindow_st CUaccessPolicyWindow;
typedef enum CUgraphNodeType_enum { CU_GRAPH_NODE_TYPE_KERNEL = 0 } CUgraphNodeType;
typedef enum CUdevice_attribute_enum { CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1 } CUdevice_attribute;

#endif
