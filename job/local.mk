# job/: the job layer, libpstencil-job, above io/ and below the front ends:
# one run of a stencil (input, parameters, backend, boxes, outputs, records,
# report) that the program, its MPI form and the bindings all drive
# (job/pstencil_job.h). Links libpstencil-io and libpstencil; no vendor runtime.
lib_LTLIBRARIES += job/libpstencil-job.la
job_libpstencil_job_la_SOURCES = job/ps_job.c job/ps_job_options.c job/ps_job_parse.c \
	job/ps_job_input.c job/ps_job_inputs.c job/ps_job_fields.c job/ps_job_local.c job/ps_job_ranks.c job/ps_job_records.c \
	job/ps_job_record.c job/ps_job_reduce.c job/ps_job_tune.c job/ps_job_internal.h
job_libpstencil_job_la_CFLAGS = $(AM_CFLAGS) $(NETCDF_CFLAGS)
job_libpstencil_job_la_LIBADD = io/libpstencil-io.la core/libpstencil.la -lm
job_libpstencil_job_la_LDFLAGS = -version-info 0:0:0
pkginclude_HEADERS += job/pstencil_job.h
pkgconfig_DATA += pstencil-job.pc
