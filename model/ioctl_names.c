// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Names of DRM ioctl commands: the DRM core's (include/uapi/drm/drm.h) and the
 * driver-private ones of amdgpu, i915 and xe (their uapi headers, 7.3), by
 * command number. Other drivers' private commands are shown by number.
 */
#include <stdio.h>
#include <string.h>
#include "model/ioctl_names.h"

#define DRM_IOCTL_TYPE 'd'
#define DRM_COMMAND_BASE 0x40
#define DRM_COMMAND_END 0xa0

static const char *const core_names[256] = {
	[0x00] = "VERSION",
	[0x01] = "GET_UNIQUE",
	[0x02] = "GET_MAGIC",
	[0x03] = "IRQ_BUSID",
	[0x04] = "GET_MAP",
	[0x05] = "GET_CLIENT",
	[0x06] = "GET_STATS",
	[0x07] = "SET_VERSION",
	[0x08] = "MODESET_CTL",
	[0x09] = "GEM_CLOSE",
	[0x0a] = "GEM_FLINK",
	[0x0b] = "GEM_OPEN",
	[0x0c] = "GET_CAP",
	[0x0d] = "SET_CLIENT_CAP",
	[0x10] = "SET_UNIQUE",
	[0x11] = "AUTH_MAGIC",
	[0x12] = "BLOCK",
	[0x13] = "UNBLOCK",
	[0x14] = "CONTROL",
	[0x15] = "ADD_MAP",
	[0x16] = "ADD_BUFS",
	[0x17] = "MARK_BUFS",
	[0x18] = "INFO_BUFS",
	[0x19] = "MAP_BUFS",
	[0x1a] = "FREE_BUFS",
	[0x1b] = "RM_MAP",
	[0x1c] = "SET_SAREA_CTX",
	[0x1d] = "GET_SAREA_CTX",
	[0x1e] = "SET_MASTER",
	[0x1f] = "DROP_MASTER",
	[0x20] = "ADD_CTX",
	[0x21] = "RM_CTX",
	[0x22] = "MOD_CTX",
	[0x23] = "GET_CTX",
	[0x24] = "SWITCH_CTX",
	[0x25] = "NEW_CTX",
	[0x26] = "RES_CTX",
	[0x27] = "ADD_DRAW",
	[0x28] = "RM_DRAW",
	[0x29] = "DMA",
	[0x2a] = "LOCK",
	[0x2b] = "UNLOCK",
	[0x2c] = "FINISH",
	[0x2d] = "PRIME_HANDLE_TO_FD",
	[0x2e] = "PRIME_FD_TO_HANDLE",
	[0x30] = "AGP_ACQUIRE",
	[0x31] = "AGP_RELEASE",
	[0x32] = "AGP_ENABLE",
	[0x33] = "AGP_INFO",
	[0x34] = "AGP_ALLOC",
	[0x35] = "AGP_FREE",
	[0x36] = "AGP_BIND",
	[0x37] = "AGP_UNBIND",
	[0x38] = "SG_ALLOC",
	[0x39] = "SG_FREE",
	[0x3a] = "WAIT_VBLANK",
	[0x3b] = "CRTC_GET_SEQUENCE",
	[0x3c] = "CRTC_QUEUE_SEQUENCE",
	[0x3f] = "UPDATE_DRAW",
	[0xa0] = "MODE_GETRESOURCES",
	[0xa1] = "MODE_GETCRTC",
	[0xa2] = "MODE_SETCRTC",
	[0xa3] = "MODE_CURSOR",
	[0xa4] = "MODE_GETGAMMA",
	[0xa5] = "MODE_SETGAMMA",
	[0xa6] = "MODE_GETENCODER",
	[0xa7] = "MODE_GETCONNECTOR",
	[0xa8] = "MODE_ATTACHMODE",
	[0xa9] = "MODE_DETACHMODE",
	[0xaa] = "MODE_GETPROPERTY",
	[0xab] = "MODE_SETPROPERTY",
	[0xac] = "MODE_GETPROPBLOB",
	[0xad] = "MODE_GETFB",
	[0xae] = "MODE_ADDFB",
	[0xaf] = "MODE_RMFB",
	[0xb0] = "MODE_PAGE_FLIP",
	[0xb1] = "MODE_DIRTYFB",
	[0xb2] = "MODE_CREATE_DUMB",
	[0xb3] = "MODE_MAP_DUMB",
	[0xb4] = "MODE_DESTROY_DUMB",
	[0xb5] = "MODE_GETPLANERESOURCES",
	[0xb6] = "MODE_GETPLANE",
	[0xb7] = "MODE_SETPLANE",
	[0xb8] = "MODE_ADDFB2",
	[0xb9] = "MODE_OBJ_GETPROPERTIES",
	[0xba] = "MODE_OBJ_SETPROPERTY",
	[0xbb] = "MODE_CURSOR2",
	[0xbc] = "MODE_ATOMIC",
	[0xbd] = "MODE_CREATEPROPBLOB",
	[0xbe] = "MODE_DESTROYPROPBLOB",
	[0xbf] = "SYNCOBJ_CREATE",
	[0xc0] = "SYNCOBJ_DESTROY",
	[0xc1] = "SYNCOBJ_HANDLE_TO_FD",
	[0xc2] = "SYNCOBJ_FD_TO_HANDLE",
	[0xc3] = "SYNCOBJ_WAIT",
	[0xc4] = "SYNCOBJ_RESET",
	[0xc5] = "SYNCOBJ_SIGNAL",
	[0xc6] = "MODE_CREATE_LEASE",
	[0xc7] = "MODE_LIST_LESSEES",
	[0xc8] = "MODE_GET_LEASE",
	[0xc9] = "MODE_REVOKE_LEASE",
	[0xca] = "SYNCOBJ_TIMELINE_WAIT",
	[0xcb] = "SYNCOBJ_QUERY",
	[0xcc] = "SYNCOBJ_TRANSFER",
	[0xcd] = "SYNCOBJ_TIMELINE_SIGNAL",
	[0xce] = "MODE_GETFB2",
	[0xcf] = "SYNCOBJ_EVENTFD",
	[0xd0] = "MODE_CLOSEFB",
	[0xd1] = "SET_CLIENT_NAME",
	[0xd2] = "GEM_CHANGE_HANDLE",
};

static const char *const amdgpu_names[DRM_COMMAND_END - DRM_COMMAND_BASE] = {
	[0x00] = "AMDGPU_GEM_CREATE",
	[0x01] = "AMDGPU_GEM_MMAP",
	[0x02] = "AMDGPU_CTX",
	[0x03] = "AMDGPU_BO_LIST",
	[0x04] = "AMDGPU_CS",
	[0x05] = "AMDGPU_INFO",
	[0x06] = "AMDGPU_GEM_METADATA",
	[0x07] = "AMDGPU_GEM_WAIT_IDLE",
	[0x08] = "AMDGPU_GEM_VA",
	[0x09] = "AMDGPU_WAIT_CS",
	[0x10] = "AMDGPU_GEM_OP",
	[0x11] = "AMDGPU_GEM_USERPTR",
	[0x12] = "AMDGPU_WAIT_FENCES",
	[0x13] = "AMDGPU_VM",
	[0x14] = "AMDGPU_FENCE_TO_HANDLE",
	[0x15] = "AMDGPU_SCHED",
	[0x16] = "AMDGPU_USERQ",
	[0x17] = "AMDGPU_USERQ_SIGNAL",
	[0x18] = "AMDGPU_USERQ_WAIT",
	[0x19] = "AMDGPU_GEM_LIST_HANDLES",
	[0x1a] = "AMDGPU_PROC_OPTIONS",
};

static const char *const i915_names[DRM_COMMAND_END - DRM_COMMAND_BASE] = {
	[0x00] = "I915_INIT",
	[0x01] = "I915_FLUSH",
	[0x02] = "I915_FLIP",
	[0x03] = "I915_BATCHBUFFER",
	[0x04] = "I915_IRQ_EMIT",
	[0x05] = "I915_IRQ_WAIT",
	[0x06] = "I915_GETPARAM",
	[0x07] = "I915_SETPARAM",
	[0x08] = "I915_ALLOC",
	[0x09] = "I915_FREE",
	[0x0a] = "I915_INIT_HEAP",
	[0x0b] = "I915_CMDBUFFER",
	[0x0c] = "I915_DESTROY_HEAP",
	[0x0d] = "I915_SET_VBLANK_PIPE",
	[0x0e] = "I915_GET_VBLANK_PIPE",
	[0x0f] = "I915_VBLANK_SWAP",
	[0x11] = "I915_HWS_ADDR",
	[0x13] = "I915_GEM_INIT",
	[0x14] = "I915_GEM_EXECBUFFER",
	[0x15] = "I915_GEM_PIN",
	[0x16] = "I915_GEM_UNPIN",
	[0x17] = "I915_GEM_BUSY",
	[0x18] = "I915_GEM_THROTTLE",
	[0x19] = "I915_GEM_ENTERVT",
	[0x1a] = "I915_GEM_LEAVEVT",
	[0x1b] = "I915_GEM_CREATE",
	[0x1c] = "I915_GEM_PREAD",
	[0x1d] = "I915_GEM_PWRITE",
	[0x1e] = "I915_GEM_MMAP",
	[0x1f] = "I915_GEM_SET_DOMAIN",
	[0x20] = "I915_GEM_SW_FINISH",
	[0x21] = "I915_GEM_SET_TILING",
	[0x22] = "I915_GEM_GET_TILING",
	[0x23] = "I915_GEM_GET_APERTURE",
	[0x24] = "I915_GEM_MMAP_GTT",
	[0x25] = "I915_GET_PIPE_FROM_CRTC_ID",
	[0x26] = "I915_GEM_MADVISE",
	[0x27] = "I915_OVERLAY_PUT_IMAGE",
	[0x28] = "I915_OVERLAY_ATTRS",
	[0x29] = "I915_GEM_EXECBUFFER2",
	[0x2a] = "I915_GET_SPRITE_COLORKEY",
	[0x2b] = "I915_SET_SPRITE_COLORKEY",
	[0x2c] = "I915_GEM_WAIT",
	[0x2d] = "I915_GEM_CONTEXT_CREATE",
	[0x2e] = "I915_GEM_CONTEXT_DESTROY",
	[0x2f] = "I915_GEM_SET_CACHING",
	[0x30] = "I915_GEM_GET_CACHING",
	[0x31] = "I915_REG_READ",
	[0x32] = "I915_GET_RESET_STATS",
	[0x33] = "I915_GEM_USERPTR",
	[0x34] = "I915_GEM_CONTEXT_GETPARAM",
	[0x35] = "I915_GEM_CONTEXT_SETPARAM",
	[0x36] = "I915_PERF_OPEN",
	[0x37] = "I915_PERF_ADD_CONFIG",
	[0x38] = "I915_PERF_REMOVE_CONFIG",
	[0x39] = "I915_QUERY",
	[0x3a] = "I915_GEM_VM_CREATE",
	[0x3b] = "I915_GEM_VM_DESTROY",
	[0x3c] = "I915_GEM_CREATE_EXT",
};

static const char *const xe_names[DRM_COMMAND_END - DRM_COMMAND_BASE] = {
	[0x00] = "XE_DEVICE_QUERY",
	[0x01] = "XE_GEM_CREATE",
	[0x02] = "XE_GEM_MMAP_OFFSET",
	[0x03] = "XE_VM_CREATE",
	[0x04] = "XE_VM_DESTROY",
	[0x05] = "XE_VM_BIND",
	[0x06] = "XE_EXEC_QUEUE_CREATE",
	[0x07] = "XE_EXEC_QUEUE_DESTROY",
	[0x08] = "XE_EXEC_QUEUE_GET_PROPERTY",
	[0x09] = "XE_EXEC",
	[0x0a] = "XE_WAIT_USER_FENCE",
	[0x0b] = "XE_OBSERVATION",
	[0x0c] = "XE_MADVISE",
	[0x0d] = "XE_VM_QUERY_MEM_RANGE_ATTRS",
	[0x0e] = "XE_EXEC_QUEUE_SET_PROPERTY",
	[0x0f] = "XE_VM_GET_PROPERTY",
};

/*
 * The NVIDIA driver's escapes (ioctl type 'F'), as the open driver's headers name them
 * (nv_escape.h: the resource manager's; nv-ioctl-numbers.h: the device file's, from 200).
 */
#define NV_IOCTL_TYPE 'F'
static const char *const nvidia_names[256] = {
	[0x27] = "RM_ALLOC_MEMORY",
	[0x28] = "RM_ALLOC_OBJECT",
	[0x29] = "RM_FREE",
	[0x2a] = "RM_CONTROL",
	[0x2b] = "RM_ALLOC",
	[0x32] = "RM_CONFIG_GET",
	[0x33] = "RM_CONFIG_SET",
	[0x34] = "RM_DUP_OBJECT",
	[0x35] = "RM_SHARE",
	[0x37] = "RM_CONFIG_GET_EX",
	[0x38] = "RM_CONFIG_SET_EX",
	[0x39] = "RM_I2C_ACCESS",
	[0x41] = "RM_IDLE_CHANNELS",
	[0x4a] = "RM_VID_HEAP_CONTROL",
	[0x4d] = "RM_ACCESS_REGISTRY",
	[0x4e] = "RM_MAP_MEMORY",
	[0x4f] = "RM_UNMAP_MEMORY",
	[0x52] = "RM_GET_EVENT_DATA",
	[0x54] = "RM_ALLOC_CONTEXT_DMA2",
	[0x56] = "RM_ADD_VBLANK_CALLBACK",
	[0x57] = "RM_MAP_MEMORY_DMA",
	[0x58] = "RM_UNMAP_MEMORY_DMA",
	[0x59] = "RM_BIND_CONTEXT_DMA",
	[0x5c] = "RM_EXPORT_OBJECT_TO_FD",
	[0x5d] = "RM_IMPORT_OBJECT_FROM_FD",
	[0x5e] = "RM_UPDATE_DEVICE_MAPPING_INFO",
	[200] = "CARD_INFO",
	[201] = "REGISTER_FD",
	[206] = "ALLOC_OS_EVENT",
	[207] = "FREE_OS_EVENT",
	[209] = "STATUS_CODE",
	[210] = "CHECK_VERSION_STR",
	[211] = "IOCTL_XFER_CMD",
	[212] = "ATTACH_GPUS_TO_FD",
	[213] = "QUERY_DEVICE_INTR",
	[214] = "SYS_PARAMS",
	[217] = "EXPORT_TO_DMABUF_FD",
	[218] = "WAIT_OPEN_COMPLETE",
};

/*
 * NVIDIA's UVM device (/dev/nvidia-uvm): plain numbers, no ioctl type (uvm_ioctl.h's UVM_IOCTL_BASE(i)
 * on Linux), and UVM_INITIALIZE and UVM_DEINITIALIZE at 0x30000001 and 0x30000002 (uvm_linux_ioctl.h).
 */
#define UVM_NAMES 75
static const char *const uvm_names[UVM_NAMES] = {
	[1] = "RESERVE_VA",
	[2] = "RELEASE_VA",
	[3] = "REGION_COMMIT",
	[4] = "REGION_DECOMMIT",
	[5] = "REGION_SET_STREAM",
	[6] = "SET_STREAM_RUNNING",
	[7] = "SET_STREAM_STOPPED",
	[9] = "RUN_TEST",
	[10] = "ADD_SESSION",
	[11] = "REMOVE_SESSION",
	[12] = "ENABLE_COUNTERS",
	[13] = "MAP_COUNTER",
	[14] = "CREATE_EVENT_QUEUE",
	[15] = "REMOVE_EVENT_QUEUE",
	[16] = "MAP_EVENT_QUEUE",
	[17] = "EVENT_CTRL",
	[18] = "REGISTER_MPS_SERVER",
	[19] = "REGISTER_MPS_CLIENT",
	[20] = "GET_GPU_UUID_TABLE",
	[23] = "CREATE_RANGE_GROUP",
	[24] = "DESTROY_RANGE_GROUP",
	[25] = "REGISTER_GPU_VASPACE",
	[26] = "UNREGISTER_GPU_VASPACE",
	[27] = "REGISTER_CHANNEL",
	[28] = "UNREGISTER_CHANNEL",
	[29] = "ENABLE_PEER_ACCESS",
	[30] = "DISABLE_PEER_ACCESS",
	[31] = "SET_RANGE_GROUP",
	[33] = "MAP_EXTERNAL_ALLOCATION",
	[34] = "FREE",
	[35] = "MEM_MAP",
	[36] = "DEBUG_ACCESS_MEMORY",
	[37] = "REGISTER_GPU",
	[38] = "UNREGISTER_GPU",
	[39] = "PAGEABLE_MEM_ACCESS",
	[40] = "PREVENT_MIGRATION_RANGE_GROUPS",
	[41] = "ALLOW_MIGRATION_RANGE_GROUPS",
	[42] = "SET_PREFERRED_LOCATION",
	[43] = "UNSET_PREFERRED_LOCATION",
	[44] = "ENABLE_READ_DUPLICATION",
	[45] = "DISABLE_READ_DUPLICATION",
	[46] = "SET_ACCESSED_BY",
	[47] = "UNSET_ACCESSED_BY",
	[51] = "MIGRATE",
	[53] = "MIGRATE_RANGE_GROUP",
	[54] = "ENABLE_SYSTEM_WIDE_ATOMICS",
	[55] = "DISABLE_SYSTEM_WIDE_ATOMICS",
	[56] = "TOOLS_INIT_EVENT_TRACKER",
	[57] = "TOOLS_SET_NOTIFICATION_THRESHOLD",
	[58] = "TOOLS_EVENT_QUEUE_ENABLE_EVENTS",
	[59] = "TOOLS_EVENT_QUEUE_DISABLE_EVENTS",
	[60] = "TOOLS_ENABLE_COUNTERS",
	[61] = "TOOLS_DISABLE_COUNTERS",
	[62] = "TOOLS_READ_PROCESS_MEMORY",
	[63] = "TOOLS_WRITE_PROCESS_MEMORY",
	[64] = "TOOLS_GET_PROCESSOR_UUID_TABLE",
	[65] = "MAP_DYNAMIC_PARALLELISM_REGION",
	[66] = "UNMAP_EXTERNAL",
	[67] = "TOOLS_FLUSH_EVENTS",
	[68] = "ALLOC_SEMAPHORE_POOL",
	[69] = "CLEAN_UP_ZOMBIE_RESOURCES",
	[70] = "PAGEABLE_MEM_ACCESS_ON_GPU",
	[71] = "POPULATE_PAGEABLE",
	[72] = "VALIDATE_VA_RANGE",
	[73] = "CREATE_EXTERNAL_RANGE",
	[74] = "MAP_EXTERNAL_SPARSE",
};

bool ioctl_is_uvm(uint32_t cmd)
{
	return cmd == 0x30000001 || cmd == 0x30000002 || (cmd > 0 && cmd < 0x800); /* no type: not 'F''s */
}

/* A UVM command's name: "uvm REGISTER_GPU", "uvm 0x4b" where this build knows none. */
static void uvm_name(uint32_t cmd, char *buf, size_t size)
{
	if (cmd == 0x30000001 || cmd == 0x30000002)
		snprintf(buf, size, "uvm %s", cmd == 0x30000001 ? "INITIALIZE" : "DEINITIALIZE");
	else if (cmd < UVM_NAMES && uvm_names[cmd])
		snprintf(buf, size, "uvm %s", uvm_names[cmd]);
	else
		snprintf(buf, size, "uvm 0x%02x", cmd);
}

static const struct {
	const char *driver;
	const char *const *names;
} drivers[] = {
	{ "amdgpu", amdgpu_names },
	{ "i915", i915_names },
	{ "xe", xe_names },
};

void ioctl_command_name(enum ioctl_device kind, const char *driver, uint32_t cmd, char *buf, size_t size)
{
	unsigned int type = (cmd >> 8) & 0xff, nr = cmd & 0xff;

	if (kind == IOCTL_DEVICE_NVIDIA) {
		if (ioctl_is_uvm(cmd))
			uvm_name(cmd, buf, size);
		else if (type == NV_IOCTL_TYPE && nvidia_names[nr])
			snprintf(buf, size, "nvidia %s", nvidia_names[nr]);
		else
			snprintf(buf, size, "nvidia 0x%02x", nr);
		return;
	}
	if (type != DRM_IOCTL_TYPE) {
		snprintf(buf, size, "type 0x%02x nr 0x%02x", type, nr);
		return;
	}
	if (nr < DRM_COMMAND_BASE || nr >= DRM_COMMAND_END) {
		if (core_names[nr])
			snprintf(buf, size, "%s", core_names[nr]);
		else
			snprintf(buf, size, "drm 0x%02x", nr);
		return;
	}
	for (size_t i = 0; driver && i < sizeof(drivers) / sizeof(drivers[0]); i++) {
		const char *name = drivers[i].names[nr - DRM_COMMAND_BASE];

		if (!strcmp(driver, drivers[i].driver) && name) {
			snprintf(buf, size, "%s", name);
			return;
		}
	}
	snprintf(buf, size, "%s+0x%02x", driver && *driver ? driver : "driver", nr - DRM_COMMAND_BASE);
}
