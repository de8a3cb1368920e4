// SPDX-License-Identifier: GPL-2.0
/*
 * mockdrm: a DRM driver with GEM shmem buffers and nothing else, for the memory
 * collector's tests. A client allocates buffers of known sizes (dumb buffers);
 * on kernels with drm_show_memory_stats (6.5+) its fdinfo reports them
 * (drm-total-memory ...), as panfrost or msm do. Builds on 6.1 and 7.x.
 */
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/version.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_ioctl.h>

struct mockdrm {
	struct drm_device drm;
};

static const struct file_operations mockdrm_fops = {
	.owner = THIS_MODULE,
	.open = drm_open,
	.release = drm_release,
	.unlocked_ioctl = drm_ioctl,
	.compat_ioctl = drm_compat_ioctl,
	.poll = drm_poll,
	.read = drm_read,
	.llseek = noop_llseek,
	.mmap = drm_gem_mmap,
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
	.show_fdinfo = drm_show_fdinfo,
#endif
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
	.fop_flags = FOP_UNSIGNED_OFFSET, /* drm_open refuses a file without it */
#endif
};

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
static void mockdrm_show_fdinfo(struct drm_printer *p, struct drm_file *file)
{
	drm_show_memory_stats(p, file);
}
#endif

static const struct drm_driver mockdrm_driver = {
	.driver_features = DRIVER_GEM,
	.fops = &mockdrm_fops,
	DRM_GEM_SHMEM_DRIVER_OPS,
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
	.show_fdinfo = mockdrm_show_fdinfo,
#endif
	.name = "mockdrm",
	.desc = "gputop-bpf test driver: GEM buffers only",
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 14, 0)
	.date = "20261122",
#endif
	.major = 1,
	.minor = 0,
};

static struct platform_device *pdev;
static struct mockdrm *mdrm;

static int __init mockdrm_init(void)
{
	int err;

	pdev = platform_device_register_simple("mockdrm", -1, NULL, 0);
	if (IS_ERR(pdev))
		return PTR_ERR(pdev);
	if (!devres_open_group(&pdev->dev, NULL, GFP_KERNEL)) {
		err = -ENOMEM;
		goto fail;
	}
	mdrm = devm_drm_dev_alloc(&pdev->dev, &mockdrm_driver, struct mockdrm, drm);
	if (IS_ERR(mdrm)) {
		err = PTR_ERR(mdrm);
		goto fail;
	}
	err = drm_dev_register(&mdrm->drm, 0);
	if (err)
		goto fail;
	return 0;
fail:
	devres_release_group(&pdev->dev, NULL);
	platform_device_unregister(pdev);
	return err;
}

static void __exit mockdrm_exit(void)
{
	drm_dev_unregister(&mdrm->drm);
	devres_release_group(&pdev->dev, NULL);
	platform_device_unregister(pdev);
}

module_init(mockdrm_init);
module_exit(mockdrm_exit);
MODULE_DESCRIPTION("gputop-bpf test DRM driver: GEM shmem buffers, memory stats in fdinfo");
MODULE_LICENSE("GPL");
