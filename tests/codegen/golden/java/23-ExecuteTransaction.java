// ExecuteTransaction on http://127.0.0.1:8000 (profile dev, region eu-west-1)
// Needs software.amazon.awssdk:dynamodb (the AWS SDK for Java v2) on the class path.
import java.net.URI;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.*;

public class DynamoDbRequest {
    public static void main(String[] args) throws InterruptedException {
        try (DynamoDbClient client = DynamoDbClient.builder()
                .region(Region.of("eu-west-1"))
                .credentialsProvider(ProfileCredentialsProvider.create("dev"))
                .endpointOverride(URI.create("http://127.0.0.1:8000"))
                .build()) {
            ExecuteTransactionRequest request = ExecuteTransactionRequest.builder()
                .transactStatements(List.of(
                    ParameterizedStatement.builder()
                        .statement("UPDATE \"Codegen\" SET n = ? WHERE pk = ? AND sk = ?")
                        .parameters(List.of(
                            AttributeValue.builder()
                                .n("9.9999999999999999999999999999999999999E+125")
                                .build(),
                            AttributeValue.builder().s("p#1").build(),
                            AttributeValue.builder().n("1").build()
                        ))
                        .returnValuesOnConditionCheckFailure("ALL_OLD")
                        .build(),
                    ParameterizedStatement.builder()
                        .statement("DELETE FROM \"Codegen.Other-2\" WHERE id = ?")
                        .parameters(List.of(
                            AttributeValue.builder()
                                .b(SdkBytes.fromByteArray(Base64.getDecoder().decode("AA==")))
                                .build()
                        ))
                        .build()
                ))
                .clientRequestToken("codegen-token-1")
                .returnConsumedCapacity("TOTAL")
                .build();
            ExecuteTransactionResponse response = client.executeTransaction(request);
            System.out.println(response);
        }
    }
}
