# The hip plugin (only this links libamdhip64).
