# man: the manual pages.  Function names without a page of their own are
# one-line .so stubs, so `man gpuk_add` works; man/check-man.sh keeps this
# list, the pages and include/gpuk.h in agreement.
dist_man_MANS += \
	man/gpuk-info.1 \
	man/gpuk-bench.1 \
	man/gpuk.7 \
	man/gpuk-validation.7
dist_man_MANS += \
	man/gpuk.3 \
	man/gpuk_add.3 \
	man/gpuk_batched_matmul.3 \
	man/gpuk_bias_relu.3 \
	man/gpuk_blas.3 \
	man/gpuk_context.3 \
	man/gpuk_context_close.3 \
	man/gpuk_context_error.3 \
	man/gpuk_context_info.3 \
	man/gpuk_context_load_report.3 \
	man/gpuk_context_open.3 \
	man/gpuk_context_open_ex.3 \
	man/gpuk_copy.3 \
	man/gpuk_csr_create.3 \
	man/gpuk_csr_destroy.3 \
	man/gpuk_dot.3 \
	man/gpuk_dtype_name.3 \
	man/gpuk_dtype_size.3 \
	man/gpuk_elementwise.3 \
	man/gpuk_embedding.3 \
	man/gpuk_gemm.3 \
	man/gpuk_gemv.3 \
	man/gpuk_host_alloc.3 \
	man/gpuk_host_free.3 \
	man/gpuk_interop.3 \
	man/gpuk_load_report_count.3 \
	man/gpuk_load_report_free.3 \
	man/gpuk_load_report_get.3 \
	man/gpuk_load_report_text.3 \
	man/gpuk_matmul.3 \
	man/gpuk_meanpool.3 \
	man/gpuk_minplus.3 \
	man/gpuk_op_from_name.3 \
	man/gpuk_op_exact.3 \
	man/gpuk_op_name.3 \
	man/gpuk_options_init.3 \
	man/gpuk_peak_measure.3 \
	man/gpuk_reduce.3 \
	man/gpuk_relu.3 \
	man/gpuk_scale.3 \
	man/gpuk_softmax.3 \
	man/gpuk_spmv.3 \
	man/gpuk_status_name.3 \
	man/gpuk_strerror.3 \
	man/gpuk_sync.3 \
	man/gpuk_tensor.3 \
	man/gpuk_tensor_create.3 \
	man/gpuk_tensor_destroy.3 \
	man/gpuk_tensor_from_dlpack.3 \
	man/gpuk_tensor_get_info.3 \
	man/gpuk_tensor_read.3 \
	man/gpuk_tensor_to_dlpack.3 \
	man/gpuk_tensor_view.3 \
	man/gpuk_tensor_wrap.3 \
	man/gpuk_tensor_write.3 \
	man/gpuk_timer_start.3 \
	man/gpuk_timer_stop.3 \
	man/gpuk_transpose.3 \
	man/gpuk_variant_count.3 \
	man/gpuk_variant_count_dtype.3 \
	man/gpuk_variant_get.3 \
	man/gpuk_variant_get_dtype.3 \
	man/gpuk_version.3

TESTS += man/check-man.sh
EXTRA_DIST += man/check-man.sh
