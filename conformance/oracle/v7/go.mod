module smdx/conformance/oracle

go 1.27

require (
	go.yaml.in/yaml/v2 v2.4.4
	sigs.k8s.io/structured-merge-diff/v7 v7.0.0
)
