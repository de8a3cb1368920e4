// SPDX-License-Identifier: GPL-2.0
/*
 * mockgpu: a GPU driver with no GPU, for testing gputop-bpf on real kernels.
 *
 * It registers drm_gpu_scheduler instances named like amdgpu rings, and a misc
 * device /dev/mockgpu whose ioctls push jobs, in the calling process's context,
 * through the real DRM scheduler. The "hardware" runs each job for its requested
 * time: an hrtimer signals the job's hardware fence. Jobs may depend on the last
 * job of another ring. Builds against the 6.1 and the 7.x drm_sched APIs.
 */
#include <linux/dma-fence.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/version.h>
#include <drm/gpu_scheduler.h>
#include "mockgpu_uapi.h"

#define MAX_JOBS_PER_CALL 4096
#define JOB_TIMEOUT_MS 10000

struct mock_ring {
	const char *name;
	u32 hw_limit; /* jobs on the hardware at once */
	struct drm_gpu_scheduler sched;
	spinlock_t fence_lock;
	struct mutex last_lock;
	struct dma_fence *last_finished; /* the ring's newest job, for dependencies */
	atomic_t jobs; /* created and not yet freed: unload waits for zero */
	bool ready;
};

static struct mock_ring rings[MOCKGPU_RINGS] = {
	{ .name = "gfx_0.0.0", .hw_limit = 4 },
	{ .name = "comp_1.0.0", .hw_limit = 2 },
	{ .name = "sdma0", .hw_limit = 1 },
};

struct mock_job {
	struct dma_fence hw_fence; /* first: dma_fence_free() frees the whole job */
	struct drm_sched_job base;
	struct hrtimer timer;
	struct mock_ring *ring;
	u32 duration_us;
};

struct mock_file {
	struct drm_sched_entity entities[MOCKGPU_RINGS];
	struct dma_fence *last[MOCKGPU_RINGS]; /* this file's newest job per ring */
	struct mutex lock;
};

static struct platform_device *pdev;
static DECLARE_WAIT_QUEUE_HEAD(jobs_freed);

static struct mock_job *to_mock_job(struct drm_sched_job *job)
{
	return container_of(job, struct mock_job, base);
}

static const char *fence_driver_name(struct dma_fence *f)
{
	return "mockgpu";
}

static const char *fence_timeline_name(struct dma_fence *f)
{
	return "mockgpu-hw";
}

static const struct dma_fence_ops hw_fence_ops = {
	.get_driver_name = fence_driver_name,
	.get_timeline_name = fence_timeline_name,
};

static enum hrtimer_restart job_timer_done(struct hrtimer *t)
{
	struct mock_job *job = container_of(t, struct mock_job, timer);

	dma_fence_signal(&job->hw_fence);
	return HRTIMER_NORESTART;
}

/* The hardware: each job runs for its own duration from the moment it is handed over. */
static struct dma_fence *mock_run_job(struct drm_sched_job *sched_job)
{
	struct mock_job *job = to_mock_job(sched_job);

	hrtimer_start(&job->timer, ns_to_ktime((u64)job->duration_us * NSEC_PER_USEC),
		      HRTIMER_MODE_REL);
	return dma_fence_get(&job->hw_fence);
}

static enum drm_gpu_sched_stat mock_timedout_job(struct drm_sched_job *sched_job)
{
	pr_warn("mockgpu: job timed out on %s\n", sched_job->sched->name);
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 17, 0)
	return DRM_GPU_SCHED_STAT_RESET;
#else
	return DRM_GPU_SCHED_STAT_NOMINAL;
#endif
}

static void mock_free_job(struct drm_sched_job *sched_job)
{
	struct mock_job *job = to_mock_job(sched_job);

	hrtimer_cancel(&job->timer);
	if (!dma_fence_is_signaled(&job->hw_fence)) {
		/* Killed before it ran (its entity was torn down). */
		dma_fence_set_error(&job->hw_fence, -ECANCELED);
		dma_fence_signal(&job->hw_fence);
	}
	drm_sched_job_cleanup(sched_job);
	if (atomic_dec_and_test(&job->ring->jobs))
		wake_up_all(&jobs_freed);
	dma_fence_put(&job->hw_fence);
}

static const struct drm_sched_backend_ops mock_sched_ops = {
	.run_job = mock_run_job,
	.timedout_job = mock_timedout_job,
	.free_job = mock_free_job,
};

static int ring_init(struct mock_ring *r)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 15, 0)
	const struct drm_sched_init_args args = {
		.ops = &mock_sched_ops,
		.num_rqs = DRM_SCHED_PRIORITY_COUNT,
		.credit_limit = r->hw_limit,
		.timeout = msecs_to_jiffies(JOB_TIMEOUT_MS),
		.name = r->name,
		.dev = &pdev->dev,
	};

	return drm_sched_init(&r->sched, &args);
#else
	return drm_sched_init(&r->sched, &mock_sched_ops, r->hw_limit, 0,
			      msecs_to_jiffies(JOB_TIMEOUT_MS), NULL, NULL, r->name, &pdev->dev);
#endif
}

static struct mock_job *job_create(struct mock_ring *r, struct drm_sched_entity *entity,
				   u32 duration_us)
{
	struct mock_job *job = kzalloc(sizeof(*job), GFP_KERNEL);
	int err;

	if (!job)
		return ERR_PTR(-ENOMEM);
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 17, 0)
	err = drm_sched_job_init(&job->base, entity, 1, NULL, 0);
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0)
	err = drm_sched_job_init(&job->base, entity, 1, NULL);
#else
	err = drm_sched_job_init(&job->base, entity, NULL);
#endif
	if (err) {
		kfree(job);
		return ERR_PTR(err);
	}
	job->duration_us = duration_us;
	job->ring = r;
	atomic_inc(&r->jobs);
	/* Each job its own fence context: rings complete jobs out of submission order. */
	dma_fence_init(&job->hw_fence, &hw_fence_ops, &rings[0].fence_lock,
		       dma_fence_context_alloc(1), 1);
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
	hrtimer_setup(&job->timer, job_timer_done, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
#else
	hrtimer_init(&job->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	job->timer.function = job_timer_done;
#endif
	return job;
}

static void set_fence(struct dma_fence **slot, struct dma_fence *f)
{
	struct dma_fence *old = *slot;

	*slot = dma_fence_get(f);
	dma_fence_put(old);
}

static int submit_one(struct mock_file *mf, const struct mockgpu_submit *req)
{
	struct mock_ring *r = &rings[req->ring];
	struct dma_fence *dep = NULL, *finished;
	struct mock_job *job;
	int err;

	job = job_create(r, &mf->entities[req->ring], req->duration_us);
	if (IS_ERR(job))
		return PTR_ERR(job);
	if (req->dep_ring != MOCKGPU_NO_DEP) {
		struct mock_ring *d = &rings[req->dep_ring];

		mutex_lock(&d->last_lock);
		dep = dma_fence_get(d->last_finished);
		mutex_unlock(&d->last_lock);
		if (dep) {
			err = drm_sched_job_add_dependency(&job->base, dep); /* consumes dep */
			if (err) {
				mock_free_job(&job->base);
				return err;
			}
		}
	}
	drm_sched_job_arm(&job->base);
	finished = &job->base.s_fence->finished;
	mutex_lock(&r->last_lock);
	set_fence(&r->last_finished, finished);
	mutex_unlock(&r->last_lock);
	set_fence(&mf->last[req->ring], finished);
	drm_sched_entity_push_job(&job->base);
	return 0;
}

static long mock_submit(struct mock_file *mf, void __user *arg)
{
	struct mockgpu_submit req;
	int err = 0;

	if (copy_from_user(&req, arg, sizeof(req)))
		return -EFAULT;
	if (req.ring >= MOCKGPU_RINGS || req.count > MAX_JOBS_PER_CALL ||
	    (req.dep_ring != MOCKGPU_NO_DEP && req.dep_ring >= MOCKGPU_RINGS) ||
	    req.duration_us > 10 * USEC_PER_SEC)
		return -EINVAL;
	mutex_lock(&mf->lock);
	for (u32 i = 0; i < req.count && !err; i++)
		err = submit_one(mf, &req);
	mutex_unlock(&mf->lock);
	return err;
}

static long mock_wait(struct mock_file *mf)
{
	long ret = 0;

	mutex_lock(&mf->lock);
	for (int i = 0; i < MOCKGPU_RINGS && ret >= 0; i++)
		if (mf->last[i])
			ret = dma_fence_wait(mf->last[i], true);
	mutex_unlock(&mf->lock);
	return ret < 0 ? ret : 0;
}

static long mock_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct mock_file *mf = file->private_data;

	switch (cmd) {
	case MOCKGPU_IOC_SUBMIT:
		return mock_submit(mf, (void __user *)arg);
	case MOCKGPU_IOC_WAIT:
		return mock_wait(mf);
	}
	return -ENOTTY;
}

static int mock_open(struct inode *inode, struct file *file)
{
	struct mock_file *mf = kzalloc(sizeof(*mf), GFP_KERNEL);
	int i, err;

	if (!mf)
		return -ENOMEM;
	mutex_init(&mf->lock);
	for (i = 0; i < MOCKGPU_RINGS; i++) {
		struct drm_gpu_scheduler *list[] = { &rings[i].sched };

		err = drm_sched_entity_init(&mf->entities[i], DRM_SCHED_PRIORITY_NORMAL, list, 1,
					    NULL);
		if (err)
			goto fail;
	}
	file->private_data = mf;
	return 0;
fail:
	while (i--)
		drm_sched_entity_destroy(&mf->entities[i]);
	kfree(mf);
	return err;
}

static int mock_release(struct inode *inode, struct file *file)
{
	struct mock_file *mf = file->private_data;

	/* Queued jobs still go to the hardware; the module's exit waits for them. */
	for (int i = 0; i < MOCKGPU_RINGS; i++) {
		drm_sched_entity_destroy(&mf->entities[i]);
		dma_fence_put(mf->last[i]);
	}
	kfree(mf);
	return 0;
}

static const struct file_operations mock_fops = {
	.owner = THIS_MODULE,
	.open = mock_open,
	.release = mock_release,
	.unlocked_ioctl = mock_ioctl,
};

static struct miscdevice mock_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "mockgpu",
	.fops = &mock_fops,
	.mode = 0666,
};

static void rings_fini(void)
{
	for (int i = 0; i < MOCKGPU_RINGS; i++) {
		struct mock_ring *r = &rings[i];

		if (!r->ready)
			continue;
		/* Let the hardware finish and the scheduler free every job, then stop it. */
		if (!wait_event_timeout(jobs_freed, !atomic_read(&r->jobs),
					msecs_to_jiffies(JOB_TIMEOUT_MS)))
			pr_warn("mockgpu: %s did not drain: %d jobs left\n", r->name,
				atomic_read(&r->jobs));
		drm_sched_fini(&r->sched);
		dma_fence_put(r->last_finished);
		r->last_finished = NULL;
		r->ready = false;
	}
}

static int __init mockgpu_init(void)
{
	int err;

	pdev = platform_device_register_simple("mockgpu", -1, NULL, 0);
	if (IS_ERR(pdev))
		return PTR_ERR(pdev);
	for (int i = 0; i < MOCKGPU_RINGS; i++) {
		spin_lock_init(&rings[i].fence_lock);
		mutex_init(&rings[i].last_lock);
		err = ring_init(&rings[i]);
		if (err)
			goto fail;
		rings[i].ready = true;
	}
	err = misc_register(&mock_misc);
	if (err)
		goto fail;
	pr_info("mockgpu: %d rings ready\n", MOCKGPU_RINGS);
	return 0;
fail:
	rings_fini();
	platform_device_unregister(pdev);
	return err;
}

static void __exit mockgpu_exit(void)
{
	misc_deregister(&mock_misc);
	rings_fini();
	platform_device_unregister(pdev);
	pr_info("mockgpu: unloaded\n");
}

module_init(mockgpu_init);
module_exit(mockgpu_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Mock GPU scheduler driver for gputop-bpf tests");
