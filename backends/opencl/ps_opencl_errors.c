/* OpenCL status codes: their names (OpenCL 1.2 plus the ICD and common
 * extension codes) and the ps_ status each maps to. */
#include "config.h"
#include "ps_opencl.h"

#include <stdio.h>

const char *ps_ocl_err_name(cl_int e)
{
#define E(x) case x: return #x
    switch (e) {
    E(CL_SUCCESS);
    E(CL_DEVICE_NOT_FOUND);
    E(CL_DEVICE_NOT_AVAILABLE);
    E(CL_COMPILER_NOT_AVAILABLE);
    E(CL_MEM_OBJECT_ALLOCATION_FAILURE);
    E(CL_OUT_OF_RESOURCES);
    E(CL_OUT_OF_HOST_MEMORY);
    E(CL_PROFILING_INFO_NOT_AVAILABLE);
    E(CL_MEM_COPY_OVERLAP);
    E(CL_IMAGE_FORMAT_MISMATCH);
    E(CL_IMAGE_FORMAT_NOT_SUPPORTED);
    E(CL_BUILD_PROGRAM_FAILURE);
    E(CL_MAP_FAILURE);
    E(CL_MISALIGNED_SUB_BUFFER_OFFSET);
    E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    E(CL_COMPILE_PROGRAM_FAILURE);
    E(CL_LINKER_NOT_AVAILABLE);
    E(CL_LINK_PROGRAM_FAILURE);
    E(CL_DEVICE_PARTITION_FAILED);
    E(CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
    E(CL_INVALID_VALUE);
    E(CL_INVALID_DEVICE_TYPE);
    E(CL_INVALID_PLATFORM);
    E(CL_INVALID_DEVICE);
    E(CL_INVALID_CONTEXT);
    E(CL_INVALID_QUEUE_PROPERTIES);
    E(CL_INVALID_COMMAND_QUEUE);
    E(CL_INVALID_HOST_PTR);
    E(CL_INVALID_MEM_OBJECT);
    E(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    E(CL_INVALID_IMAGE_SIZE);
    E(CL_INVALID_SAMPLER);
    E(CL_INVALID_BINARY);
    E(CL_INVALID_BUILD_OPTIONS);
    E(CL_INVALID_PROGRAM);
    E(CL_INVALID_PROGRAM_EXECUTABLE);
    E(CL_INVALID_KERNEL_NAME);
    E(CL_INVALID_KERNEL_DEFINITION);
    E(CL_INVALID_KERNEL);
    E(CL_INVALID_ARG_INDEX);
    E(CL_INVALID_ARG_VALUE);
    E(CL_INVALID_ARG_SIZE);
    E(CL_INVALID_KERNEL_ARGS);
    E(CL_INVALID_WORK_DIMENSION);
    E(CL_INVALID_WORK_GROUP_SIZE);
    E(CL_INVALID_WORK_ITEM_SIZE);
    E(CL_INVALID_GLOBAL_OFFSET);
    E(CL_INVALID_EVENT_WAIT_LIST);
    E(CL_INVALID_EVENT);
    E(CL_INVALID_OPERATION);
    E(CL_INVALID_GL_OBJECT);
    E(CL_INVALID_BUFFER_SIZE);
    E(CL_INVALID_MIP_LEVEL);
    E(CL_INVALID_GLOBAL_WORK_SIZE);
    E(CL_INVALID_PROPERTY);
    E(CL_INVALID_IMAGE_DESCRIPTOR);
    E(CL_INVALID_COMPILER_OPTIONS);
    E(CL_INVALID_LINKER_OPTIONS);
    E(CL_INVALID_DEVICE_PARTITION_COUNT);
    /* OpenCL 2.x codes a newer runtime may still return */
    case -69: return "CL_INVALID_PIPE_SIZE";
    case -70: return "CL_INVALID_DEVICE_QUEUE";
    case -71: return "CL_INVALID_SPEC_ID";
    case -72: return "CL_MAX_SIZE_RESTRICTION_EXCEEDED";
    /* ICD loader and common extensions */
    case CL_PLATFORM_NOT_FOUND_KHR: return "CL_PLATFORM_NOT_FOUND_KHR";
    case -1000: return "CL_INVALID_GL_SHAREGROUP_REFERENCE_KHR";
    case -1057: return "CL_DEVICE_PARTITION_FAILED_EXT";
    case -1058: return "CL_INVALID_PARTITION_COUNT_EXT";
    case -1059: return "CL_INVALID_PARTITION_NAME_EXT";
    case -1121: return "CL_CONTEXT_TERMINATED_KHR";
    default: return "unknown OpenCL error";
    }
#undef E
}

int ps_ocl_status(cl_int e)
{
    switch (e) {
    case CL_SUCCESS:
        return PS_OK;
    case CL_OUT_OF_HOST_MEMORY:
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
    case CL_INVALID_BUFFER_SIZE:
        return PS_ENOMEM;
    case CL_DEVICE_NOT_FOUND:
    case CL_DEVICE_NOT_AVAILABLE:
    case CL_PLATFORM_NOT_FOUND_KHR:
        return PS_ENODEVICE;
    default:
        return PS_EDEVICE;
    }
}

int ps_ocl_fail(char *buf, size_t len, cl_int e, const char *fmt, ...)
{
    va_list ap;
    int used;
    va_start(ap, fmt);
    used = vsnprintf(buf, len, fmt, ap);
    va_end(ap);
    if (used < 0)
        used = 0;
    if ((size_t)used < len)
        snprintf(buf + used, len - (size_t)used, " failed: %s (%d)", ps_ocl_err_name(e), (int)e);
    return ps_ocl_status(e);
}
