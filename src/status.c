/* status.c - status texts, dtype and op names, the library version. */
#include "gpuk_internal.h"

#include <string.h>

const char *gpuk_version(void)
{
    return PACKAGE_VERSION;
}

const char *gpuk_strerror(gpuk_status status)
{
    switch (status) {
    case GPUK_OK: return "success";
    case GPUK_ERR_NULL: return "a required pointer argument is NULL";
    case GPUK_ERR_INVALID: return "an argument has a value outside its domain";
    case GPUK_ERR_DTYPE: return "a tensor has the wrong element type";
    case GPUK_ERR_SHAPE: return "tensor shapes disagree or are out of range";
    case GPUK_ERR_LAYOUT: return "tensor strides not supported here, or a view outside its storage";
    case GPUK_ERR_OVERFLOW: return "an element count or byte size overflows";
    case GPUK_ERR_ALIAS: return "an output overlaps an input";
    case GPUK_ERR_HANDLE: return "not a live handle (destroyed or never created)";
    case GPUK_ERR_CONTEXT: return "the handle belongs to another context";
    case GPUK_ERR_SPARSE: return "invalid CSR structure";
    case GPUK_ERR_INDEX: return "an index value is out of range";
    case GPUK_ERR_SIZE: return "the host buffer size differs from the tensor's";
    case GPUK_ERR_VARIANT: return "no such variant of this op on this backend";
    case GPUK_ERR_UNSUPPORTED: return "not implemented by this backend";
    case GPUK_ERR_NO_MEMORY: return "out of host memory";
    case GPUK_ERR_DEVICE_MEMORY: return "out of device memory";
    case GPUK_ERR_BACKEND_NOT_FOUND: return "backend plugin not found";
    case GPUK_ERR_BACKEND_LOAD: return "backend plugin could not be loaded";
    case GPUK_ERR_BACKEND_SYMBOL: return "backend plugin lacks the entry symbol";
    case GPUK_ERR_BACKEND_ABI: return "backend plugin built for another ABI";
    case GPUK_ERR_NO_DRIVER: return "the backend's driver is missing or too old";
    case GPUK_ERR_NO_DEVICE: return "no usable device";
    case GPUK_ERR_DEVICE: return "the device reported an error";
    case GPUK_ERR_LIBRARY: return "a vendor library call failed";
    case GPUK_ERR_CHECK: return "shadow check (GPUK_CHECK) found a mismatch";
    case GPUK_ERR_ENV: return "an environment variable has an invalid value";
    case GPUK_ERR_INTERNAL: return "internal error in libgpuk";
    }
    return "unknown status code";
}

size_t gk_elsize(gpuk_dtype dt)
{
    switch (dt) {
    case GPUK_F32: return 4;
    case GPUK_I32: return 4;
    }
    return 0;
}

size_t gpuk_dtype_size(gpuk_dtype dtype)
{
    return gk_elsize(dtype);
}

const char *gpuk_dtype_name(gpuk_dtype dtype)
{
    switch (dtype) {
    case GPUK_F32: return "f32";
    case GPUK_I32: return "i32";
    }
    return "?";
}

static const char *const op_names[GPUK_OP_LAST + 1] = {
    [GPUK_OP_MATMUL] = "matmul",
    [GPUK_OP_BATCHED_MATMUL] = "batched_matmul",
    [GPUK_OP_MINPLUS] = "minplus",
    [GPUK_OP_TRANSPOSE] = "transpose",
    [GPUK_OP_REDUCE] = "reduce",
    [GPUK_OP_ADD] = "add",
    [GPUK_OP_SCALE] = "scale",
    [GPUK_OP_RELU] = "relu",
    [GPUK_OP_BIAS_RELU] = "bias_relu",
    [GPUK_OP_COPY] = "copy",
    [GPUK_OP_SOFTMAX] = "softmax",
    [GPUK_OP_EMBEDDING] = "embedding",
    [GPUK_OP_MEANPOOL] = "meanpool",
    [GPUK_OP_SPMV] = "spmv",
    [GPUK_OP_DOT] = "dot",
    [GPUK_OP_GEMV] = "gemv",
    [GPUK_OP_GEMM] = "gemm",
};

const char *gpuk_op_name(gpuk_op op)
{
    if ((int)op < GPUK_OP_FIRST || (int)op > GPUK_OP_LAST)
        return NULL;
    return op_names[op];
}

gpuk_status gpuk_op_from_name(const char *name, gpuk_op *op)
{
    if (!name || !op)
        return GPUK_ERR_NULL;
    for (int i = GPUK_OP_FIRST; i <= GPUK_OP_LAST; i++) {
        if (strcmp(op_names[i], name) == 0) {
            *op = (gpuk_op)i;
            return GPUK_OK;
        }
    }
    return GPUK_ERR_INVALID;
}
