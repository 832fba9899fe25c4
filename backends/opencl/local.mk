# The opencl plugin (only this links the OpenCL ICD loader).
