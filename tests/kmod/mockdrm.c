// SPDX-License-Identifier: GPL-2.0
/*
 * mockdrm: a DRM driver with GEM shmem buffers and one engine, for the memory
 * collector's tests. A client allocates buffers of known sizes (dumb buffers)
 * and runs jobs of known durations (DRM_IOCTL_MOCKDRM_RUN, waiting on the job's
 * dma_fence: the fence-wait tracepoints fire); its fdinfo reports
 * both, as drivers do in each kernel: on 6.5+ through the DRM core
 * (drm_show_fdinfo, drm_show_memory_stats: drm-total-memory ...), on 6.1 by the
 * driver itself in the style of that time (drm-memory-system, as amdgpu and
 * i915 printed it). drm-engine-render is the time jobs ran, the running one
 * included. Builds on 6.1 and 7.x.
 */
#include <linux/module.h>
#include <linux/delay.h>
#include <linux/dma-fence.h>
#include <linux/workqueue.h>
#include <linux/platform_device.h>
#include <linux/seq_file.h>
#include <linux/version.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_print.h>
#include "mockdrm_uapi.h"

struct mockdrm {
	struct drm_device drm;
};

/* One open file: its engine time. */
struct mockdrm_file {
	spinlock_t lock;
	u64 busy_ns; /* jobs done */
	ktime_t started; /* of the running job */
	bool running;
	u64 id; /* 6.1: the client id the DRM core gives from 6.5 */
};

static atomic64_t next_client_id;

static int mockdrm_open(struct drm_device *dev, struct drm_file *file)
{
	struct mockdrm_file *mf = kzalloc(sizeof(*mf), GFP_KERNEL);

	if (!mf)
		return -ENOMEM;
	spin_lock_init(&mf->lock);
	mf->id = atomic64_inc_return(&next_client_id);
	file->driver_priv = mf;
	return 0;
}

static void mockdrm_postclose(struct drm_device *dev, struct drm_file *file)
{
	kfree(file->driver_priv);
}

static u64 busy_ns(struct mockdrm_file *mf)
{
	u64 ns;

	spin_lock(&mf->lock);
	ns = mf->busy_ns;
	if (mf->running)
		ns += ktime_to_ns(ktime_sub(ktime_get(), mf->started));
	spin_unlock(&mf->lock);
	return ns;
}

/* A job's fence, signalled by a worker (the "engine") after ns. */
struct mockdrm_job {
	struct dma_fence fence;
	spinlock_t lock;
	struct work_struct work;
	u64 ns;
};

static const char *job_driver_name(struct dma_fence *f)
{
	return "mockdrm";
}

static const char *job_timeline_name(struct dma_fence *f)
{
	return "mockdrm-engine";
}

static const struct dma_fence_ops job_fence_ops = {
	.get_driver_name = job_driver_name,
	.get_timeline_name = job_timeline_name,
};

static void job_run(struct work_struct *work)
{
	struct mockdrm_job *job = container_of(work, struct mockdrm_job, work);

	fsleep(div_u64(job->ns, 1000));
	dma_fence_signal(&job->fence);
	dma_fence_put(&job->fence);
}

static u64 fence_context;
static atomic64_t fence_seqno;
static struct workqueue_struct *engine; /* runs the jobs; drained at unload */

/*
 * A job: the engine is busy from here until the job's fence signals, ns later;
 * the client waits for it in dma_fence_wait (the dma_fence wait tracepoints).
 */
static int mockdrm_run_ioctl(struct drm_device *dev, void *data, struct drm_file *file)
{
	struct drm_mockdrm_run *args = data;
	struct mockdrm_file *mf = file->driver_priv;
	struct mockdrm_job *job;
	ktime_t start;
	long ret;

	if (!args->ns || args->ns > 10ULL * NSEC_PER_SEC)
		return -EINVAL;
	job = kzalloc(sizeof(*job), GFP_KERNEL);
	if (!job)
		return -ENOMEM;
	spin_lock_init(&job->lock);
	dma_fence_init(&job->fence, &job_fence_ops, &job->lock, fence_context,
		       atomic64_inc_return(&fence_seqno));
	job->ns = args->ns;
	INIT_WORK(&job->work, job_run);
	start = ktime_get();
	spin_lock(&mf->lock);
	mf->started = start;
	mf->running = true;
	spin_unlock(&mf->lock);
	dma_fence_get(&job->fence); /* the worker's reference */
	queue_work(engine, &job->work);
	ret = dma_fence_wait(&job->fence, false);
	dma_fence_put(&job->fence);
	if (ret)
		return (int)ret;
	spin_lock(&mf->lock);
	mf->busy_ns += ktime_to_ns(ktime_sub(ktime_get(), start));
	mf->running = false;
	spin_unlock(&mf->lock);
	return 0;
}

static const struct drm_ioctl_desc mockdrm_ioctls[] = {
	DRM_IOCTL_DEF_DRV(MOCKDRM_RUN, mockdrm_run_ioctl, DRM_RENDER_ALLOW),
};

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 5, 0)
/* What drivers printed themselves before the DRM core did (6.1's amdgpu, i915): sizes in KiB. */
static void mockdrm_fdinfo_61(struct seq_file *m, struct file *f)
{
	struct drm_file *file = f->private_data;
	struct mockdrm_file *mf = file->driver_priv;
	struct drm_gem_object *obj;
	u64 bytes = 0;
	int id;

	spin_lock(&file->table_lock);
	idr_for_each_entry(&file->object_idr, obj, id)
		bytes += obj->size;
	spin_unlock(&file->table_lock);
	seq_printf(m, "drm-driver:\tmockdrm\n");
	seq_printf(m, "drm-client-id:\t%llu\n", mf->id);
	seq_printf(m, "drm-engine-render:\t%llu ns\n", busy_ns(mf));
	seq_printf(m, "drm-memory-system:\t%llu KiB\n", bytes / 1024);
}
#endif

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
#else
	.show_fdinfo = mockdrm_fdinfo_61,
#endif
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
	.fop_flags = FOP_UNSIGNED_OFFSET, /* drm_open refuses a file without it */
#endif
};

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
static void mockdrm_show_fdinfo(struct drm_printer *p, struct drm_file *file)
{
	drm_printf(p, "drm-engine-render:\t%llu ns\n", busy_ns(file->driver_priv));
	drm_show_memory_stats(p, file);
}
#endif

static const struct drm_driver mockdrm_driver = {
	.driver_features = DRIVER_GEM,
	.fops = &mockdrm_fops,
	.open = mockdrm_open,
	.postclose = mockdrm_postclose,
	.ioctls = mockdrm_ioctls,
	.num_ioctls = ARRAY_SIZE(mockdrm_ioctls),
	DRM_GEM_SHMEM_DRIVER_OPS,
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
	.show_fdinfo = mockdrm_show_fdinfo,
#endif
	.name = "mockdrm",
	.desc = "gputop-bpf test driver: GEM buffers, one engine",
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

	fence_context = dma_fence_context_alloc(1);
	engine = alloc_workqueue("mockdrm", WQ_UNBOUND, 0);
	if (!engine)
		return -ENOMEM;
	pdev = platform_device_register_simple("mockdrm", -1, NULL, 0);
	if (IS_ERR(pdev)) {
		destroy_workqueue(engine);
		return PTR_ERR(pdev);
	}
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
	destroy_workqueue(engine);
	return err;
}

static void __exit mockdrm_exit(void)
{
	drm_dev_unregister(&mdrm->drm);
	devres_release_group(&pdev->dev, NULL);
	platform_device_unregister(pdev);
	destroy_workqueue(engine);
}

module_init(mockdrm_init);
module_exit(mockdrm_exit);
MODULE_DESCRIPTION("gputop-bpf test DRM driver: GEM shmem buffers, engine time and memory stats in fdinfo");
MODULE_LICENSE("GPL");
