// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The kernel's module uevents, as the poller reads them to pick up drivers loaded later. */
#include "tests/unit/cmocka_all.h"
#include <string.h>
#include "src/module_watch.h"

#define MSG(s) s, sizeof(s)

static void test_parse(void **state)
{
	char name[32];

	(void)state;
	assert_int_equal(module_uevent_parse(MSG("add@/module/amdgpu\0ACTION=add\0DEVPATH=/module/amdgpu\0SUBSYSTEM=module"),
					     name, sizeof(name)),
			 1);
	assert_string_equal(name, "amdgpu");
	assert_int_equal(module_uevent_parse(MSG("remove@/module/mockgpu\0ACTION=remove"), name,
					     sizeof(name)),
			 -1);
	assert_string_equal(name, "mockgpu");
	strcpy(name, "unchanged");
	/* not a module itself: its parameters, a device, another action, udev's own messages */
	assert_int_equal(module_uevent_parse(MSG("add@/module/amdgpu/parameters"), name, sizeof(name)), 0);
	assert_int_equal(module_uevent_parse(MSG("add@/devices/pci0000:00/0000:00:02.0"), name, sizeof(name)), 0);
	assert_int_equal(module_uevent_parse(MSG("bind@/module/amdgpu"), name, sizeof(name)), 0);
	assert_int_equal(module_uevent_parse(MSG("add@/module/"), name, sizeof(name)), 0);
	assert_int_equal(module_uevent_parse(MSG("libudev\0\xfe\xed\xca\xfe"), name, sizeof(name)), 0);
	assert_int_equal(module_uevent_parse("add@/module/x", 5, name, sizeof(name)), 0); /* no NUL */
	assert_string_equal(name, "unchanged");
	/* a long name is cut, not overflowed */
	assert_int_equal(module_uevent_parse(MSG("add@/module/a_module_name_longer_than_the_buffer_given"),
					     name, 8),
			 1);
	assert_string_equal(name, "a_modul");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
