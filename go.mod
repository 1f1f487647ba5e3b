module sudokubatch

go 1.26
