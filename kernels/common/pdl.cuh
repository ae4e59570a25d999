// Programmatic dependent launch (sm_90 and newer): in a chain graph, a launch marked by
// src/kernels/graph/batch.rs `overlap_next` may start while the launch before it is still running.
// Elsewhere (a plain launch, an older GPU, OXSPARSE_PDL=0) both calls return at once.
#pragma once

// Waits until the kernel before this one in the chain has finished and its writes are visible.
// A kernel that may be launched so calls it before it reads anything that kernel writes.
__device__ __forceinline__ void wait_for_previous_kernel() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// Lets the next kernel of the chain start now (once every block of this one has called it or
// exited), so that its first memory trips overlap this kernel's work.
__device__ __forceinline__ void let_next_kernel_start() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" :::);
#endif
}
