// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Names of GPU ioctl commands, amdgpu memory types and interrupt sources, Intel engines. */
#include <string.h>
#include "tests/unit/cmocka_all.h"
#include "collectors/amdgpu/amdgpu_tables.h"
#include "collectors/intel/intel_tables.h"
#include "model/ioctl_names.h"

/* The kernel's _IOC encoding: dir << 30 | size << 16 | type << 8 | nr. */
#define IOC(dir, type, nr, size) ((unsigned int)(dir) << 30 | (size) << 16 | (type) << 8 | (nr))

static const char *name(enum ioctl_device kind, const char *driver, unsigned int cmd)
{
	static char buf[64];

	ioctl_command_name(kind, driver, cmd, buf, sizeof(buf));
	return buf;
}

static void drm_core_commands(void **state)
{
	(void)state;
	assert_string_equal(name(IOCTL_DEVICE_DRM, "amdgpu", IOC(3, 'd', 0x0c, 16)), "GET_CAP");
	assert_string_equal(name(IOCTL_DEVICE_DRM, "", IOC(3, 'd', 0x00, 64)), "VERSION");
	assert_string_equal(name(IOCTL_DEVICE_DRM, "i915", IOC(3, 'd', 0xb2, 32)), "MODE_CREATE_DUMB");
	assert_string_equal(name(IOCTL_DEVICE_DRM, "xe", IOC(3, 'd', 0xc3, 32)), "SYNCOBJ_WAIT");
	assert_string_equal(name(IOCTL_DEVICE_DRM, "vkms", IOC(3, 'd', 0xb0, 24)), "MODE_PAGE_FLIP");
	assert_string_equal(name(IOCTL_DEVICE_DRM, "", IOC(3, 'd', 0xfe, 8)), "drm 0xfe");
}

static void driver_private_commands(void **state)
{
	(void)state;
	/* DRM_COMMAND_BASE 0x40 + the driver's number */
	assert_string_equal(name(IOCTL_DEVICE_DRM, "amdgpu", IOC(3, 'd', 0x44, 24)), "AMDGPU_CS");
	assert_string_equal(name(IOCTL_DEVICE_DRM, "amdgpu", IOC(3, 'd', 0x40, 32)), "AMDGPU_GEM_CREATE");
	assert_string_equal(name(IOCTL_DEVICE_DRM, "i915", IOC(1, 'd', 0x69, 64)), "I915_GEM_EXECBUFFER2");
	assert_string_equal(name(IOCTL_DEVICE_DRM, "xe", IOC(1, 'd', 0x49, 32)), "XE_EXEC");
	/* the same numbers on other drivers: by number and driver */
	assert_string_equal(name(IOCTL_DEVICE_DRM, "mockdrm", IOC(1, 'd', 0x40, 8)), "mockdrm+0x00");
	assert_string_equal(name(IOCTL_DEVICE_DRM, "panfrost", IOC(3, 'd', 0x44, 8)), "panfrost+0x04");
	assert_string_equal(name(IOCTL_DEVICE_DRM, "", IOC(3, 'd', 0x9f, 8)), "driver+0x5f");
	/* a number amdgpu does not define */
	assert_string_equal(name(IOCTL_DEVICE_DRM, "amdgpu", IOC(3, 'd', 0x7f, 8)), "amdgpu+0x3f");
}

static void other_commands(void **state)
{
	(void)state;
	assert_string_equal(name(IOCTL_DEVICE_DRM, "", IOC(1, 'b', 0x02, 8)), "type 0x62 nr 0x02");
	/* the driver's escapes by the names of the open driver's headers; others by number */
	assert_string_equal(name(IOCTL_DEVICE_NVIDIA, "nvidia", IOC(3, 'F', 0x2a, 32)), "nvidia RM_CONTROL");
	assert_string_equal(name(IOCTL_DEVICE_NVIDIA, "nvidia", IOC(3, 'F', 210, 64)), "nvidia CHECK_VERSION_STR");
	assert_string_equal(name(IOCTL_DEVICE_NVIDIA, "nvidia", IOC(3, 'F', 0x30, 32)), "nvidia 0x30");
	assert_string_equal(name(IOCTL_DEVICE_NVIDIA, "nvidia", IOC(3, 'T', 0x2a, 4)), "nvidia 0x2a");
	/* nvidia-uvm's: plain numbers (uvm_ioctl.h), INITIALIZE and DEINITIALIZE apart */
	assert_string_equal(name(IOCTL_DEVICE_NVIDIA, "nvidia", 37), "uvm REGISTER_GPU");
	assert_string_equal(name(IOCTL_DEVICE_NVIDIA, "nvidia", 33), "uvm MAP_EXTERNAL_ALLOCATION");
	assert_string_equal(name(IOCTL_DEVICE_NVIDIA, "nvidia", 0x30000001), "uvm INITIALIZE");
	assert_string_equal(name(IOCTL_DEVICE_NVIDIA, "nvidia", 0x30000002), "uvm DEINITIALIZE");
	assert_string_equal(name(IOCTL_DEVICE_NVIDIA, "nvidia", 75), "uvm 0x4b"); /* newer than the names known */
	assert_true(ioctl_is_uvm(8) && !ioctl_is_uvm(0) && !ioctl_is_uvm(IOC(3, 'F', 0x2a, 32)));
}

static void amdgpu_names(void **state)
{
	(void)state;
	assert_string_equal(amdgpu_domain_name(0), "CPU");
	assert_string_equal(amdgpu_domain_name(1), "GTT");
	assert_string_equal(amdgpu_domain_name(2), "VRAM");
	assert_string_equal(amdgpu_domain_name(7), "DOORBELL");
	assert_string_equal(amdgpu_domain_name(200), "other");
	assert_string_equal(amdgpu_iv_client_name(20), "GRBM_CP");
	assert_string_equal(amdgpu_iv_client_name(8), "SDMA0");
	assert_string_equal(amdgpu_iv_client_name(27), "UTCL2");
	assert_null(amdgpu_iv_client_name(26));
	assert_null(amdgpu_iv_client_name(400));
	assert_string_equal(amdgpu_iv_source_name(20, 181), "CP end of pipe");
	assert_string_equal(amdgpu_iv_source_name(0, 181), "CP end of pipe"); /* pre-SOC15 */
	assert_string_equal(amdgpu_iv_source_name(9, 224), "SDMA trap");
	assert_string_equal(amdgpu_iv_source_name(18, 0), "VM page fault");
	assert_null(amdgpu_iv_source_name(4, 181)); /* 181 of the display engine is something else */
}

static void intel_names(void **state)
{
	char buf[16];

	(void)state;
	intel_engine_name(0, 0, buf, sizeof(buf));
	assert_string_equal(buf, "rcs0");
	intel_engine_name(1, 2, buf, sizeof(buf));
	assert_string_equal(buf, "bcs2");
	intel_engine_name(3, 1, buf, sizeof(buf));
	assert_string_equal(buf, "vecs1");
	intel_engine_name(4, 0, buf, sizeof(buf));
	assert_string_equal(buf, "ccs0");
	intel_engine_name(9, 1, buf, sizeof(buf));
	assert_string_equal(buf, "9:1");
	assert_string_equal(xe_class_name(0), "render");
	assert_string_equal(xe_class_name(3), "copy");
	assert_string_equal(xe_class_name(5), "compute");
	assert_string_equal(xe_class_name(-1), "?");
	assert_string_equal(xe_class_name(6), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(drm_core_commands), cmocka_unit_test(driver_private_commands),
		cmocka_unit_test(other_commands),    cmocka_unit_test(amdgpu_names),
		cmocka_unit_test(intel_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
